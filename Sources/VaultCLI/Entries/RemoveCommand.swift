import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault rm`.
struct RemoveCommand: VaultCommand {
  static let about = CommandAbout(
    "rm", aliases: ["remove", "delete"], "Remove an entry (undo with 'vault restore').",
    discussion: """
      The entry's last version is kept in its history, so 'vault restore NAME' brings it \
      back until retention drops it; 'vault purge NAME' removes it for good.
      """)

  @ArgumentParameter(Keys.name) var name

  func run(_ context: Context) throws -> Int32 {
    let kept = try context.open(.use(reason: "delete '\(name)'")).entries.remove(name)
    let shown = Output.printable(name.value)
    let word = Output.printable(ShellWord.argument(name.value))
    Output.error(
      kept
        ? "Removed '\(shown)'. Undo with: vault restore \(word)  ('vault purge' removes it for"
          + " good)."
        : "Removed '\(shown)' for good: the retention settings keep no history (see 'vault"
          + " settings').")
    return ExitCode.success.rawValue
  }
}
