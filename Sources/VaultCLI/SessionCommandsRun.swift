import Biometry
import Glibc
import VaultCore

/// `unlock`, `lock`, and the `biometry` subcommands.
enum SessionCommandsRun {
  static func unlock(_ context: Context) throws {
    let idle =
      try context.invocation.value("timeout").map(Duration.parse)
      ?? SessionStore.defaultIdle
    let shell = context.invocation.value("shell") ?? "bash"
    guard ["bash", "zsh", "fish"].contains(shell) else {
      throw VaultError.invalidInput("unknown shell '\(shell)' (bash, zsh or fish)")
    }
    let vault = try context.openVault()
    let pin = try context.readPIN(for: vault)
    let key = try context.authenticator(vault).unlock(pin: pin, reason: "unlock the vault")
    let sessions = SessionStore(environment: context.environment)
    let token = try sessions.issue(vaultID: vault.vaultID, masterKey: key, idle: idle)
    let text: String
    if context.invocation.flag("raw") {
      text = token + "\n"
    } else if shell == "fish" {
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
    try SessionStore(environment: context.environment).revokeAll(vaultID: vault.vaultID)
    Output.error("Every session of \(vault.path) was revoked.")
  }

  static func activate(_ context: Context) throws {
    let vault = try context.openVault()
    let pin = try context.readPIN(for: vault)
    let key = try vault.unlock(pin: pin)
    let authenticator = context.authenticator(vault)
    try authenticator.gate.credentialVerified()
    let seal = try authenticator.activate(masterKey: key, reason: "activate biometric unlock")
    Output.error("Biometric unlock activated (simulated \(BiometryType.displayName(seal.type))).")
  }

  static func deactivate(_ context: Context) throws {
    let vault = try context.openVault()
    let authenticator = context.authenticator(vault)
    guard authenticator.requiresBiometry else {
      throw VaultError.biometryUnavailable("biometric unlock is already off for this vault")
    }
    if vault.header.biometry?.state == "disabled" && !context.invocation.flag("recovery") {
      throw VaultError.enrollmentChanged(
        "biometric unlock is disabled, so no match can be checked; turn it off with"
          + " 'vault biometry deactivate --recovery', or re-activate it first")
    }
    let key: SymmetricKey
    if context.invocation.flag("recovery") {
      let typed = try context.readSecretLine(prompt: "Recovery code: ")
      key = try vault.unlock(recoveryCode: RecoveryCode.parse(typed))
    } else {
      let pin = try context.readPIN(for: vault)
      key = try authenticator.unlock(pin: pin, reason: "turn biometric unlock off")
    }
    try authenticator.deactivate(masterKey: key)
    Output.error("Biometric unlock is off; the vault is PIN-only and every session was revoked.")
  }

  static func biometryStatus(_ context: Context) throws {
    let vault = try context.openVault()
    let info = try StatusReport.gather(context, vault: vault)
    if context.invocation.flag("json") {
      Output.print(info.biometryJSON.rendered + "\n")
    } else {
      let lines = info.text.split(separator: "\n").filter {
        $0.hasPrefix("policy") || $0.hasPrefix("sensor") || $0.hasPrefix("biometric")
      }
      Output.print(lines.joined(separator: "\n") + "\n")
    }
  }
}

/// Durations such as `90s`, `15m`, `1h`, or plain seconds.
enum Duration {
  /// Seconds, between 1 s and 8 h.
  ///
  /// - Throws: `VaultError.invalidInput` naming the accepted forms.
  static func parse(_ text: String) throws -> Double {
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
    var digits = Substring(text)
    var scale = 1.0
    if let last = text.last, let unit = units[last] {
      scale = unit
      digits = text.dropLast()
    }
    guard let number = Int(digits), number > 0 else {
      throw VaultError.invalidInput("invalid duration '\(text)' (such as 90s, 15m or 1h)")
    }
    let seconds = Double(number) * scale
    guard seconds <= SessionStore.hardLimit else {
      throw VaultError.invalidInput("the idle timeout cannot exceed the 8 h session limit")
    }
    return seconds
  }
}
