import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim unenroll`.
struct BiosimUnenrollCommand: VaultCommand {
  static let about = CommandAbout(
    "unenroll", "Remove one template, or all (the domain state changes).")

  @OptionParameter(Keys.unenrollLabel) var unenrollLabel
  @FlagParameter(Keys.all) var all

  func run(_ context: Context) throws -> Int32 {
    let label = unenrollLabel
    if all {
      guard label == nil else {
        throw UsageError(message: "give --label or --all, not both", path: ["unenroll"])
      }
      try BiosimSupport.controls(context).unenrollAll()
      Output.error("Removed every template; the domain state changed.")
    } else if let label {
      try BiosimSupport.controls(context).unenroll(label: label.text)
      Output.error("Removed '\(label.text)'; the domain state changed.")
    } else {
      throw UsageError(message: "say which template: --label LABEL or --all", path: ["unenroll"])
    }
    return ExitCode.success.rawValue
  }
}
