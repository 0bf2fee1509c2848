import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// `unlock`, `lock`, and the `biometry` subcommands.
enum SessionCommandsRun {
  static func unlock(_ context: Context) throws {
    let idle = try context.value(Keys.timeout).map { Double($0.value) } ?? SessionStore.defaultIdle
    let shellSyntax = try context.value(Keys.shell)
    let shellSession =
      context.flag(Keys.shellSession) || context.flag(Keys.raw) || shellSyntax != nil
    if !shellSession {
      try unlockAgent(context, idle: idle)
      return
    }
    let shell = shellSyntax ?? .bash
    let raw = context.flag(Keys.raw)
    // Shell code on the screen helps nobody and shows the token: say how to use it instead.
    if !raw && isatty(1) == 1 {
      throw ShellCodeOnTerminal(shell: shell)
    }
    let unlocked: UnlockedVault
    do {
      unlocked = try context.open(.startSession)
    } catch {
      // Shell code that fails when run, so `eval "$(vault unlock --shell-session)" && ...`
      // stops (the one case where standard output carries something on a failure).
      if !raw { Output.print("false\n") }
      throw error
    }
    let vault = unlocked.vault
    let sessions = SessionStore(environment: context.environment)
    let token = try unlocked.issueSession(idle: idle)
    let text: String
    if raw {
      text = token + "\n"
    } else if shell == .fish {
      text = "set -gx VAULT_SESSION \(token);\n"
    } else {
      text = "export VAULT_SESSION=\(token);\n"
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

  /// `vault unlock` without `--shell-session`: the PIN and the match, then the key goes to the agent.
  ///
  /// The agent is started when none runs. Nothing is printed on standard output.
  private static func unlockAgent(_ context: Context, idle: Double) throws {
    let agent = AgentClient(environment: context.environment)
    // Held, and still good: the agent's worker checks the key against the header, the state
    // and the biometric binding (an enrollment changed since disables it here, and the agent
    // lets the vault go).
    if !context.flag(Keys.unlockAgain), try agent.status(vaultPath: context.vaultPath) != nil {
      let verified = try AgentForwarding.run(context, arguments: verifyHeldArguments(context))
      // The worker's check asked the sensor for this command (a preflight, no prompt): an
      // answer queued for this unlock and left waiting is said as it ends.
      RunScope.current.sensorConsulted = (context.deviceStore, context.environment.clock)
      if verified == ExitCode.success.rawValue,
        let held = try agent.status(vaultPath: context.vaultPath)
      {
        let vault = try context.openVault()
        Output.error(
          "The agent already holds \(vault.path) (it locks \(lockTime(idle: held.idle, hard: held.hard)));"
            + " nothing asked. 'vault unlock --force' unlocks again.")
        return
      }
      if verified == ExitCode.enrollmentChanged.rawValue {
        try reportDisabledByHeldCheck(context)
      }
    }
    try AgentLauncher.checkSocketPath(context.environment)
    let unlocked: UnlockedVault
    do {
      unlocked = try context.open(.startSession)
    } catch let thrown {
      guard let error = VaultError(thrown) else { throw thrown }
      // A finger or face that does not match (or a lockout, a changed enrollment) while the
      // agent may hold vaults: it lets every one go.
      switch error {
      case .biometricNotRecognised, .biometricLockout, .biometricLockoutNeedsRecovery,
        .enrollmentChanged:
        agent.forget(vaultID: nil, vaultPath: nil)
      default: break
      }
      throw error
    }
    let vault = unlocked.vault
    try AgentLauncher.ensureRunning(context.environment)
    try agent.hold(
      vaultID: vault.vaultID, vaultPath: vault.path, key: unlocked.masterKey, idle: idle)
    SessionStore(environment: context.environment).clearRevocation(vault.vaultID)
    let seconds = Int(max(1, min(idle, SessionStore.hardLimit)))
    Output.error(
      "Unlocked \(vault.path) for every shell of yours: it locks after \(ExitStatus.duration(seconds))"
        + " without use (at most 8 h), or with 'vault lock'.")
  }

  /// The held key's check just disabled biometric unlock (an enrollment change): said as an
  /// unlock without the agent says it, with the reason the check recorded in the header.
  ///
  /// - Throws: `VaultError.enrollmentChanged`; returns when the header records no disable (it
  ///   changed again since), and the unlock goes on to ask as usual.
  private static func reportDisabledByHeldCheck(_ context: Context) throws {
    let vault = try context.openVault()
    let device = try context.deviceStore.read()
    if case .disabled(_, let reason) = VaultAccess.biometryStatus(of: vault, device: device) {
      throw VaultError.enrollmentChanged(reason)
    }
  }

  /// `vault __verify-held` for the vault this command names.
  private static func verifyHeldArguments(_ context: Context) -> [String] {
    ["__verify-held", "--vault", context.vaultPath]
  }

  /// `vault __verify-held`, run by the agent: 0 when its key opens the vault, 15 when the check
  /// found the enrollment changed (and disabled biometric unlock), 10 otherwise.
  ///
  /// The checks are a session key's (header, state, biometric binding). Silent: the unlock that
  /// runs it says what it found.
  static func verifyHeld(_ context: Context) -> Int32 {
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

  /// When a held vault locks, in words: "in 14 min" (the earlier of its two timers).
  static func lockTime(idle: Int, hard: Int) -> String {
    "in " + ExitStatus.duration(min(idle, hard))
  }

  static func lock(_ context: Context) throws {
    let vault = try context.openVault()
    let held =
      (try? AgentClient(environment: context.environment).status(vaultPath: vault.path))
      .flatMap { $0 } != nil
    try SessionStore(environment: context.environment).revokeAll(
      vaultID: vault.vaultID, vaultPath: vault.path, reason: .lock)
    Output.error(
      held
        ? "Locked \(vault.path): the agent let it go and every session was revoked."
        : "Locked \(vault.path): every session was revoked (the agent did not hold it).")
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
      throw VaultError.biometryUnavailable(
        "biometric unlock is already off for this vault", code: nil)
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

/// `vault unlock --shell-session` with standard output on a terminal: the code is for a shell to
/// run, so nothing is asked and the usage is shown instead (64).
struct ShellCodeOnTerminal: ReportableError {
  let shell: ShellSyntax
  var exitCode: ExitCode { .usage }
  var message: String {
    let run =
      shell == .fish
      ? "vault unlock --shell fish | source"
      : "eval \"$(vault unlock --shell-session)\""
    return "--shell-session prints shell code for your shell to run, not for the screen: \(run)"
      + " (or 'vault unlock' alone, for every shell)"
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
