import CPlatform
import Glibc
import VaultCore
import VaultFormat
import VaultSync

/// What the sync commands share: the REMOTE check, the report of a sync, enrolling this device,
/// the clone marker.
enum SyncSupport {
  /// A vault made before release 0.10.0 has no enrollment key: its devices are enrolled with
  /// the recovery code, asked for once (`vault(5)` ENROLLMENT), before it syncs.
  static func enrollIfNeeded(_ context: Context, _ unlocked: UnlockedVault) throws {
    guard !unlocked.vault.isEnrolled else { return }
    Output.error(
      "This vault's devices are not enrolled with its recovery code yet (a vault made before"
        + " release 0.10.0): the recovery code enrolls them, once, so that only it can add a"
        + " device.")
    let code = try context.recoveryCode()
    try unlocked.enroll(code: code)
    Output.error("Enrolled the vault's \(unlocked.vault.header.devices.count) device record(s).")
  }

  /// `body`; with `--rekey`, a device revoked already is refused with the hint that `vault
  /// rekey` rotates the key.
  static func hintingRekey<R>(_ rekey: Bool, _ body: () throws -> R) throws -> R {
    do {
      return try body()
    } catch DeviceNameError.revokedAlready(let digits) where rekey {
      throw RevokedAlready(digits: digits, rekeying: true)
    }
  }

  /// The file in the sync repository that marks a `vault sync clone` not finished yet.
  static let cloneMarker = "vault-clone-unfinished"

  /// REMOTE, refused when it is empty, holds a newline or starts with '-' (git would read an
  /// option).
  ///
  /// - Throws: `InputRefused` for such a REMOTE.
  static func checkedRemote(_ argument: GitRemote) throws -> String {
    let remote = argument.text
    guard !remote.isEmpty, !remote.hasPrefix("-"), !remote.contains("\n") else {
      throw InputRefused("REMOTE must be a git remote: a path or a URL")
    }
    return remote
  }

  /// True for a remote git reads as a local path: no URL scheme and no `host:` of ssh's short
  /// form before the first slash.
  static func isLocalPath(_ remote: String) -> Bool {
    if remote.contains("://") { return false }
    guard let colon = remote.firstIndex(of: ":") else { return true }
    guard let slash = remote.firstIndex(of: "/") else { return false }
    return slash < colon
  }

  static func remove(tree path: String) -> Bool {
    vault_remove_tree_at(AT_FDCWD, path, 0) == 0
  }

  static func report(_ done: SyncReport, remote: String?) {
    let with = remote.map { " with \(Output.printable($0))" } ?? ""
    if done.tookRotation {
      Output.error(
        "Took the vault's new master key from the remote; every session of this vault was"
          + " revoked (run 'vault unlock' again).")
    }
    for note in done.notes { Output.error(Output.printable(SyncWords.line(note))) }
    if done.received == 0 && done.sent == 0 && !done.headerReceived {
      Output.error("Up to date\(with) (commit \(done.commit.prefix(12))).")
      return
    }
    Output.error(
      "Synced\(with): \(done.received) record\(done.received == 1 ? "" : "s") received, "
        + "\(done.sent) file\(done.sent == 1 ? "" : "s") sent"
        + (done.headerReceived ? ", the vault's header (its devices) updated" : "")
        + " (commit \(done.commit.prefix(12))).")
  }
}
