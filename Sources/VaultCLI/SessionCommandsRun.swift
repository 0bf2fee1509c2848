import Biometry
import Glibc
import VaultCore

/// `unlock`, `lock`, and the `biometry` subcommands.
enum SessionCommandsRun {
  static func unlock(_ context: Context) throws {
    let idle = try context.value(Keys.timeout).map { Double($0.value) } ?? SessionStore.defaultIdle
    let shell = try context.value(Keys.shell) ?? .bash
    let unlocked = try context.open(.startSession)
    let vault = unlocked.vault
    let sessions = SessionStore(environment: context.environment)
    let token = try unlocked.issueSession(idle: idle)
    let text: String
    if context.flag(Keys.raw) {
      text = token + "\n"
    } else if shell == .fish {
      text = "set -gx VAULT_SESSION \(token);\n"
    } else {
      text = "export VAULT_SESSION=\(token);\n"
    }
    if isatty(1) == 1 {
      Output.error(
        "vault: hint: this prints the session for your shell to run: eval \"$(vault unlock)\"")
    }
    var bytes = Array(text.utf8)
    defer { wipe(&bytes) }
    // A token nobody received must not stay valid.
    if let failure = bytes.withUnsafeBytes({ Output.tryWrite($0) }) {
      sessions.revoke(token: token, vaultID: vault.vaultID)
      switch failure {
      case .brokenPipe: exit(Output.brokenPipe)
      case .failed(let reason):
        throw VaultError.storage(
          "cannot write to standard output: \(reason); no session was issued")
      }
    }
  }

  static func lock(_ context: Context) throws {
    let vault = try context.openVault()
    try SessionStore(environment: context.environment).revokeAll(
      vaultID: vault.vaultID, vaultPath: vault.path)
    Output.error("Every session of \(vault.path) was revoked.")
  }

  static func activate(_ context: Context) throws {
    let seal = try context.open(.activateBiometry).activateBiometry()
    Output.error("Biometric unlock activated (simulated \(BiometryType.displayName(seal.type))).")
  }

  static func deactivate(_ context: Context) throws {
    let vault = try context.openVault()
    let recovery = context.flag(Keys.recovery)
    let device = try context.deviceStore.read()
    // Refusals from the header's own fields only when this device authenticated it; otherwise
    // the PIN (or code) comes first and the header's MAC decides.
    let known = vault.headerIsAuthenticatedHere(device)
    switch known ? VaultAccess.biometryStatus(of: vault, device: device) : .notActivated {
    case .off:
      throw VaultError.biometryUnavailable("biometric unlock is already off for this vault")
    case .disabled where !recovery:
      throw DeactivateRefused()
    default: break
    }
    let unlocked = try context.access(vault).open(
      for: recovery ? .recover : .administer(reason: "turn biometric unlock off"), via: context)
    try unlocked.deactivateBiometry()
    Output.error("Biometric unlock is off; the vault is PIN-only and every session was revoked.")
  }

  static func biometryStatus(_ context: Context) throws {
    let info = try StatusReport.gather(context)
    if context.flag(Keys.json) {
      Output.print(info.biometryJSON.rendered + "\n")
    } else {
      let lines = info.text.split(separator: "\n").filter {
        $0.hasPrefix("policy") || $0.hasPrefix("sensor") || $0.hasPrefix("biometric")
      }
      Output.print(lines.joined(separator: "\n") + "\n")
    }
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
