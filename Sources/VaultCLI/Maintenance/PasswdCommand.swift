import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `vault passwd`.
struct PasswdCommand: VaultCommand {
  static let about = CommandAbout(
    "passwd", "Change the PIN (the master key is re-wrapped, entries are untouched).",
    discussion: """
      Asks for the current PIN (and the biometric match the policy requires), then the \
      new PIN twice. With --pin-fd, reads the current PIN and the new PIN as two lines. \
      Every session and hold of the vault ends; run on a terminal, the agent then holds \
      the vault again (--no-hold leaves it locked).
      """)

  @FlagParameter(Keys.noHold) var noHold

  func run(_ context: Context) throws -> Int32 {
    let unlocked = try context.open(.administer(reason: "change the PIN"))
    let newPIN = try context.readNewPIN(replacing: true)
    let change = try unlocked.changePIN(to: newPIN)
    Output.error("PIN changed; every session was revoked.")
    Output.error(GuessCost.line(for: newPIN, seconds: change.guessSeconds))
    HoldAgain.after(
      context, vault: unlocked.vault, masterKey: unlocked.masterKey, noHold: noHold)
    return ExitCode.success.rawValue
  }
}
