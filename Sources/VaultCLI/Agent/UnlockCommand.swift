import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault unlock`.
struct UnlockCommand: VaultCommand {
  static let about = CommandAbout(
    "unlock", "Hand the vault's key to your unlock agent, for every shell of yours.",
    discussion: """
      Checks the PIN, then the biometric match against the sealed domain state, and hands \
      the master key to the unlock agent (started on demand): every shell of yours then \
      reads without a prompt, so 'vault unlock && vault get NAME' just works. The agent \
      lets the vault go after its idle timeout (renewed on use), after 8 hours, with \
      'vault lock', a PIN change, a recovery or a rotation, and at the first use after \
      the enrollment changed. When it already holds the vault, unlock says so and asks \
      nothing (--force asks anyway). Without a terminal (a launcher's key binding), the \
      agent asks through a pinentry (SECURITY in vault(1)). With --shell-session (implied by --shell and --raw) \
      it issues a session for one shell instead: eval "$(vault unlock --shell-session)" \
      in bash or zsh, vault unlock --shell fish | source.
      """)

  @OptionParameter(Keys.timeout) var timeout
  @FlagParameter(Keys.shellSession) var shellSession
  @OptionParameter(Keys.shell) var shell
  @FlagParameter(Keys.raw) var raw
  @FlagParameter(Keys.unlockAgain) var unlockAgain

  func run(_ context: Context) throws -> Int32 {
    let idle = timeout.map { Double($0.value) } ?? SessionLedger.defaultIdle
    let shellSyntax = self.shell
    let shellSession =
      self.shellSession || self.raw || shellSyntax != nil
    if !shellSession {
      return try unlockAgent(context, idle: idle)
    }
    let shell = shellSyntax ?? .bash
    // Shell code on the screen helps nobody and shows the token: say how to use it instead.
    if !raw && isatty(1) == 1 {
      throw ShellCodeOnTerminal(shell: shell)
    }
    let token: SessionToken
    do {
      try AgentLauncher.checkSocketPath(context.environment)
      let unlocked = try context.open(.startSession)
      try AgentLauncher.ensureRunning(context.environment)
      token = try unlocked.issueSession(idle: idle)
    } catch {
      // Shell code that fails when run, so `eval "$(vault unlock --shell-session)" && ...`
      // stops (the one case where standard output carries something on a failure).
      if !raw { Output.print("false\n") }
      throw error
    }
    let text = token.text
    let line: SecureBytes
    if raw {
      line = SecureBytes(copying: text.unprotectedBytes + [10])
    } else if shell == .fish {
      line = SecureBytes(
        copying: Array("set -gx VAULT_SESSION ".utf8) + text.unprotectedBytes + Array(";\n".utf8))
    } else {
      line = SecureBytes(
        copying: Array("export VAULT_SESSION=".utf8) + text.unprotectedBytes + Array(";\n".utf8))
    }
    // A token nobody received must not stay valid.
    if let failure = line.withBytes({ Output.tryWrite($0) }) {
      AgentClient(environment: context.environment).forget(token: token)
      switch failure {
      case .brokenPipe: exit(Output.brokenPipe)
      case .failed(let reason):
        throw CommandFailed(
          "cannot write to standard output: \(reason); no session was issued")
      }
    }
    return ExitCode.success.rawValue
  }

  /// `vault unlock` without `--shell-session`: the PIN and the match, then the key goes to the agent.
  ///
  /// The agent is started when none runs. Nothing is printed on standard output. Without a
  /// terminal (a launcher's key binding), the agent asks through a pinentry, as for any command
  /// that needs the key.
  ///
  /// - Returns: the exit code.
  private func unlockAgent(_ context: Context, idle: Double) throws -> Int32 {
    let agent = AgentClient(environment: context.environment)
    // Held, and still good: the agent's worker checks the key against the header, the state
    // and the biometric binding (an enrollment changed since disables it here, and the agent
    // lets the vault go).
    if !unlockAgain, try agent.status(vaultPath: context.vaultPath) != nil {
      let verified = try AgentForwarding.run(context, arguments: Self.verifyHeldArguments(context))
      // The worker's check asked the sensor for this command (a preflight, no prompt): an
      // answer queued for this unlock and left waiting is said as it ends.
      RunScope.current.sensorConsulted = (context.deviceStore, context.environment.clock)
      if verified == ExitCode.success.rawValue,
        let held = try agent.status(vaultPath: context.vaultPath)
      {
        let vault = try context.openVault()
        Output.error(
          "The agent already holds \(vault.path) (it locks \(Self.lockTime(idle: held.expiry.idle, hard: held.expiry.hard)));"
            + " nothing asked. 'vault unlock --force' unlocks again.")
        return ExitCode.success.rawValue
      }
      if verified == ExitCode.enrollmentChanged.rawValue {
        try Self.reportDisabledByHeldCheck(context)
      }
    }
    try AgentLauncher.checkSocketPath(context.environment)
    if !unlockAgain, let code = try PinentryPrompt.unlock(context) { return code }
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
    SessionLedger(environment: context.environment).clearRevocation(vault.vaultID)
    let seconds = Int(max(1, min(idle, SessionLedger.hardLimit)))
    Output.error(
      "Unlocked \(vault.path) for every shell of yours: it locks after \(ExitStatus.duration(seconds))"
        + " without use (at most 8 h), or with 'vault lock'.")
    return ExitCode.success.rawValue
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

  /// When a held vault locks, in words: "in 14 min" (the earlier of its two timers).
  static func lockTime(idle: Int, hard: Int) -> String {
    "in " + ExitStatus.duration(min(idle, hard))
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
