import CPlatform
import Glibc
import VaultCore
import VaultFormat
import VaultSync

/// `vault sync devices [--json]`: the header's device records, with their commit counts as of
/// the last sync, then the revoked ids.
struct SyncDevicesCommand: VaultCommand {
  static let about = CommandAbout(
    "devices", "List the devices that sync this vault.",
    discussion: """
      One line per device: the first 8 hex digits of its id, its biometric unlock \
      (active, off or disabled), how many commits it pushed as of this device's last sync, \
      and which is this one; then the revoked ones. Needs the key (a session will do).
      """)

  @FlagParameter(Keys.json) var json

  func run(_ context: Context) throws -> Int32 {
    let unlocked = try context.open(.use(reason: "list the devices"))
    let vault = unlocked.vault
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    let vector =
      repository.exists
      ? try VaultSync(unlocked, repository: repository).lastSync()?.vector : nil
    let own = vault.localDevice?.deviceID
    let revoked = vault.header.revokedDeviceHexIDs
    let rows = vault.header.devices.map { device in
      let hex = device.deviceIDBytes.hex
      return (
        id: hex, biometry: device.biometry?.state.rawValue ?? "off",
        commits: vector?.counts[hex] ?? 0, this: device.deviceID == own
      )
    }
    if json {
      let items =
        rows.map { row in
          JSONOutput.object([
            ("device", .string(row.id)), ("this", .bool(row.this)),
            ("biometry", .string(row.biometry)), ("commits", .number(Int(row.commits))),
            ("revoked", .bool(false)),
          ])
        }
        + revoked.map { id in
          JSONOutput.object([
            ("device", .string(id)), ("this", .bool(false)), ("biometry", .null),
            ("commits", .number(Int(vector?.counts[id] ?? 0))), ("revoked", .bool(true)),
          ])
        }
      Output.print(JSONOutput.array(items).rendered + "\n")
      return ExitCode.success.rawValue
    }
    for row in rows {
      let commits = "\(row.commits) commit\(row.commits == 1 ? "" : "s")"
      Output.print(
        "\(row.id.prefix(8))  \(row.biometry + String(repeating: " ", count: max(0, 8 - row.biometry.count)))"
          + "  \(commits)\(row.this ? "  (this device)" : "")\n")
    }
    for id in revoked { Output.print("\(id.prefix(8))  revoked\n") }
    if vector == nil {
      Output.error("vault: note: this device has not synced yet; commits count from its first sync")
    }
    return ExitCode.success.rawValue
  }
}
