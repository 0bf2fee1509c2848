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
      only way back after biometric unlock was disabled by an enrollment change. Every \
      session and hold of the vault ends; run on a terminal, the agent then holds the \
      vault again under the new seal (--no-hold leaves it locked).
      """)

  @FlagParameter(Keys.noHold) var noHold

  func run(_ context: Context) throws -> Int32 {
    let unlocked = try context.open(.activateBiometry)
    let seal = try unlocked.activateBiometry()
    Output.error("Biometric unlock activated (simulated \(BiometryType.displayName(seal.type))).")
    HoldAgain.after(
      context, vault: unlocked.vault, masterKey: unlocked.masterKey, noHold: noHold)
    return ExitCode.success.rawValue
  }
}
