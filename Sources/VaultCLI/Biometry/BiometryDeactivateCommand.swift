import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault deactivate`.
struct BiometryDeactivateCommand: VaultCommand {
  static let about = CommandAbout(
    "deactivate",
    "Turn biometric unlock off on this device (PIN and a match, or the recovery code).",
    discussion: """
      Makes the vault PIN-only on this device; the other devices of a synced vault \
      keep their own policy. Needs the PIN and a biometric match, or with \
      --recovery the recovery code; never the PIN alone. Revokes every session.
      """)

  @FlagParameter(Keys.recovery) var recovery

  func run(_ context: Context) throws -> Int32 {
    let vault = try context.openVault()
    let device = try context.deviceStore.read()
    // Refusals from the header's own fields only when this device authenticated it; otherwise
    // the PIN (or code) comes first and the header's MAC decides.
    let known = vault.headerIsAuthenticatedHere(device)
    switch known ? VaultAccess.biometryStatus(of: vault, device: device) : .notActivated {
    case .off:
      throw BiometryAlreadyOff()
    case .disabled where !recovery:
      throw DeactivateRefused()
    default: break
    }
    let unlocked = try context.access(vault).open(
      for: recovery ? .recover : .administer(reason: "turn biometric unlock off"), via: context)
    try unlocked.deactivateBiometry()
    Output.error("Biometric unlock is off; the vault is PIN-only and every session was revoked.")
    return ExitCode.success.rawValue
  }
}

/// `vault biometry deactivate` without `--recovery` while biometric unlock is disabled: no match
/// can be checked, so the PIN alone would be all there is, and that is never enough.
struct DeactivateRefused: ReportableError {
  var exitCode: ExitCode { .enrollmentChanged }
  let message =
    "biometric unlock is disabled, so no match can be checked; turn it off with"
    + " 'vault biometry deactivate --recovery', or re-activate it first"
}

/// `vault biometry deactivate` for a vault whose biometric unlock is already off.
struct BiometryAlreadyOff: ReportableError {
  var exitCode: ExitCode { .biometryUnavailable }
  let message = "biometric unlock is already off for this vault"
}
