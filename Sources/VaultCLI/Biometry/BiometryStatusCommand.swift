import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault status`.
struct BiometryStatusCommand: VaultCommand {
  static let about = CommandAbout(
    "status", "Show whether biometric unlock is active, and why not.")

  @FlagParameter(Keys.json) var json

  func run(_ context: Context) throws -> Int32 {
    let info = try StatusReport.gather(context)
    if json {
      Output.print(info.biometryJSON.rendered + "\n")
    } else {
      let lines = info.text.split(separator: "\n").filter {
        $0.hasPrefix("policy") || $0.hasPrefix("sensor") || $0.hasPrefix("biometric")
      }
      Output.print(lines.joined(separator: "\n") + "\n")
    }
    return ExitCode.success.rawValue
  }
}
