import VaultCore
import VaultFormat

/// `vault restore`.
struct RestoreCommand: VaultCommand {
  static let about = CommandAbout(
    "restore", "Bring back a kept version of an entry, also after 'vault rm'.",
    discussion: """
      Makes the chosen revision (by default the newest kept one: the version before the last \
      change, or the entry as it was when removed) the entry's current version, under its \
      current name. The version it replaces is kept, so a restore can be undone too.
      """)

  @OptionParameter(Keys.restoreRevision) var restoreRevision
  @ArgumentParameter(Keys.name) var name

  func run(_ context: Context) throws -> Int32 {
    let wanted = restoreRevision.map(Int64.init)
    let (restored, revision) = try context.open(.use(reason: "restore '\(name)'")).entries
      .restore(name, revision: wanted)
    Output.error(
      "Restored revision \(restored) of '\(Output.printable(name.value))' (now revision"
        + " \(revision)).")
    return ExitCode.success.rawValue
  }
}
