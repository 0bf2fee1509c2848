import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault activate`.
struct BiometryActivateCommand: VaultCommand {
  static let about = CommandAbout(
    "activate", "Seal the current enrollment's domain state (PIN, then a match).",
    discussion: """
      Verifies the PIN first, then asks for a biometrics-only match and seals the \
      domain state from that match, with the sensor type and the time. This is the \
      only way back after biometric unlock was disabled by an enrollment change.
      """)

  func run(_ context: Context) throws -> Int32 {
    let seal = try context.open(.activateBiometry).activateBiometry()
    Output.error("Biometric unlock activated (simulated \(BiometryType.displayName(seal.type))).")
    return ExitCode.success.rawValue
  }
}
