import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat

/// How sessions and holds end for a reason, and what is left of them on disk: nothing but a
/// one-byte marker of why they last ended (vault(5), SESSIONS).
///
/// Sessions are grants the unlock agent holds (`AgentHoldings`); ending them is asking every
/// agent of the user to let the vault go (`AgentClient.forget`). The markers live in
/// `environment.sessionDirectory`; the folders of session files that releases 0.3 to 0.12 kept
/// there (each held the master key sealed under a token) are removed whenever sessions end and
/// at each unlock.
public struct SessionLedger: Sendable {
  /// Default idle timeout of a hold or a grant: 15 minutes.
  public static let defaultIdle: Double = 15 * 60
  /// The hard limit of a hold or a grant: 8 hours from its unlock.
  public static let hardLimit: Double = 8 * 3600

  let environment: VaultEnvironment

  /// The ledger of `environment.sessionDirectory`.
  public init(environment: VaultEnvironment) { self.environment = environment }

  private var directory: String { environment.sessionDirectory }

  /// Every folder a marker or an older release's session file of this user may be in: this
  /// environment's, the usual runtime folder `/run/user/UID/vault`, and the fallback under the
  /// state folder (used by a shell without `XDG_RUNTIME_DIR`).
  var everyDirectory: [String] {
    var all = [directory]
    for other in ["/run/user/\(getuid())/vault", environment.stateDirectory + "/sessions"]
    where !all.contains(other) {
      all.append(other)
    }
    return all
  }

  /// Why every session of a vault was ended (`SessionRevocation`, in the format module with the
  /// lock reasons that carry it).
  public typealias Revocation = SessionRevocation

  /// Has every agent of this user let go of the vault `vaultID` (its hold and every grant),
  /// removes what an older release left of its sessions, and records `reason` (nil: nothing to
  /// say, as for an activation, which follows a disable that said it already, or a new vault's
  /// first one).
  public func revokeAll(vaultID: VaultID, reason: Revocation?) {
    AgentClient(environment: environment).forget(vaultID: vaultID, vaultPath: nil)
    removeOlderReleaseSessions()
    if let reason { record(reason, vaultID: vaultID) }
  }

  /// Has every agent of this user let go of the vault `vaultID` and of whatever it holds for the
  /// file at `vaultPath` under any other id (without the key the header's vault id is not
  /// authenticated): what `vault lock` does; then as `revokeAll(vaultID:reason:)`.
  public func revokeAll(vaultID: VaultID, vaultPath: String, reason: Revocation) {
    AgentClient(environment: environment).forget(vaultID: vaultID, vaultPath: vaultPath)
    removeOlderReleaseSessions()
    record(reason, vaultID: vaultID)
  }

  private func markerPath(_ vaultID: VaultID) -> String {
    directory + "/" + vaultID.hex + ".revoked"
  }

  /// Best effort: a marker that cannot be written only makes a later message less precise.
  private func record(_ reason: Revocation, vaultID: VaultID) {
    guard (try? PrivateFiles.ensurePrivateDirectory(directory)) != nil else { return }
    try? PrivateFiles.atomicWrite([reason.rawValue], to: markerPath(vaultID))
  }

  /// Forgets the last revocation's reason (a new unlock), in every folder, and removes what an
  /// older release left of its sessions.
  public func clearRevocation(_ vaultID: VaultID) {
    for directory in everyDirectory { unlink(directory + "/" + vaultID.hex + ".revoked") }
    removeOlderReleaseSessions()
  }

  /// Why every session of the vault last ended, when no unlock came since: the marker of this
  /// environment's folder, else of any other folder a shell of this user may have used.
  public func revocation(of vaultID: VaultID) -> Revocation? {
    for folder in everyDirectory {
      guard (try? FileSafety.checkPrivateFolder(folder)) != nil,
        let bytes = try? PrivateFiles.read(folder + "/" + vaultID.hex + ".revoked"),
        bytes.count == 1, let reason = Revocation(rawValue: bytes[0])
      else { continue }
      return reason
    }
    return nil
  }

  /// Removes the session files releases 0.3 to 0.12 left, each a master key sealed under a token.
  ///
  /// They are the folders named by a vault id in hex (32 digits), and those a revocation of
  /// theirs renamed away (`ID.revoked-SUFFIX`), in every folder of `everyDirectory` private to
  /// this user. Best effort: what cannot be removed is left.
  public func removeOlderReleaseSessions() {
    let manager = FileManager.default
    for directory in everyDirectory {
      guard (try? FileSafety.checkPrivateFolder(directory)) != nil,
        let names = try? manager.contentsOfDirectory(atPath: directory)
      else { continue }
      for name in names where Self.isOlderReleaseFolder(name) {
        var info = stat()
        let path = directory + "/" + name
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
        try? manager.removeItem(atPath: path)
      }
    }
  }

  /// True for a vault id in hex (32 digits), alone or followed by `.revoked-`.
  static func isOlderReleaseFolder(_ name: String) -> Bool {
    let digits = name.utf8.prefix(2 * VaultID.byteCount)
    guard digits.count == 2 * VaultID.byteCount,
      digits.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
    else { return false }
    let rest = name.utf8.dropFirst(2 * VaultID.byteCount)
    return rest.isEmpty || rest.starts(with: ".revoked-".utf8)
  }
}
