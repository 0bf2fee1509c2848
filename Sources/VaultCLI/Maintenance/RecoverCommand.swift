import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `vault recover`: a new PIN for this machine, authorized by the recovery code.
struct RecoverCommand: VaultCommand {
  static let about = CommandAbout(
    "recover", "Set a new PIN with the recovery code (also on another machine).",
    discussion: """
      Asks for the recovery code, then a new PIN twice; with --pin-fd reads them as two \
      lines. A code with a typo in it is refused (exit 5) before anything is tried; a code \
      shown without a check group (8 groups, by an earlier release) is typed as shown. The \
      new PIN is bound to this machine's device secret, so a vault file copied from another \
      machine becomes usable here. Every session and hold of the vault ends; run on a \
      terminal, it then asks for the new PIN and the match as 'vault unlock' does, and the \
      agent holds the vault once they succeed (--no-hold leaves it locked).
      """)

  @FlagParameter(Keys.noHold) var noHold

  func run(_ context: Context) throws -> Int32 {
    try Self.recover(context)
    // The recovery code proves the code, not who is at the keyboard: the agent holds the vault
    // only after the new PIN and the match succeed, as at an unlock.
    if HoldAgain.wanted(context, noHold: noHold) {
      do {
        let unlocked = try context.open(.startSession)
        HoldAgain.after(
          context, vault: unlocked.vault, masterKey: unlocked.masterKey, noHold: noHold)
      } catch {
        let why = ExitStatus.report(of: error)?.message ?? "\(error)"
        Output.error("vault: note: the vault stays locked (\(why)); 'vault unlock' asks again")
      }
    }
    return ExitCode.success.rawValue
  }

  /// `vault recover`; the vault it unlocked, for a command that goes on with it (`sync clone`).
  @discardableResult
  static func recover(_ context: Context) throws -> UnlockedVault {
    let unlocked = try context.open(.recover)
    let newPIN = try context.readNewPIN()
    let change = try unlocked.changePIN(to: newPIN)
    Output.error("New PIN set for this machine; every session was revoked.")
    Output.error(GuessCost.line(for: newPIN, seconds: change.guessSeconds))
    // A seal made on another device can never match this sensor: said now, not at unlock.
    if change.disabledForeignSeal {
      Output.error(
        "Biometric unlock was sealed on another device; activate it here with"
          + " 'vault biometry activate'.")
    }
    return unlocked
  }
}
