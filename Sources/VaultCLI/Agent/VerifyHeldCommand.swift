import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault __verify-held`, run by the agent: 0 when its key opens the vault, 15 when the check
/// found the enrollment changed (and disabled biometric unlock), 10 otherwise.
///
/// The checks are a session key's (header, state, biometric binding). Silent: the unlock that
/// runs it says what it found.
struct VerifyHeldCommand: VaultCommand {
  static let about = CommandAbout(
    "__verify-held",
    "Exit 0 when the agent's key still opens the vault and its binding holds, 10 if not.",
    hidden: true, silent: true)

  func run(_ context: Context) throws -> Int32 {
    guard context.session != nil else { return ExitCode.locked.rawValue }
    do {
      _ = try context.open(.use(reason: "unlock the vault"))
      return ExitCode.success.rawValue
    } catch VaultError.enrollmentChanged {
      return ExitCode.enrollmentChanged.rawValue
    } catch {
      return ExitCode.locked.rawValue
    }
  }
}
