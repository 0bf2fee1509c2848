import Glibc
import VaultAgent
import VaultFormat

/// The client's side of a PIN asked through a pinentry: a command that needs the key, with no
/// terminal, no `--pin-fd`, no session and the vault not held, has the agent (started when
/// none runs) ask on the client's display (`UnlockPromptCommand`), then runs through it.
enum PinentryPrompt {
  /// Has the agent unlock the vault through a pinentry and returns that exit code; nil when
  /// this command does not ask that way (a terminal, a PIN descriptor, a session, no vault, the
  /// agent's own worker, or no pinentry for this setting), and then runs as before.
  ///
  /// - Throws: `UserConfig.Fault` or `VaultError.unsafePermissions` for a settings file vault
  ///   cannot use; as `AgentLauncher.ensureRunning` and `AgentForwarding.run`.
  static func unlock(_ context: Context) throws -> Int32? {
    guard context.session == nil, context.terminal == nil, !context.pinGiven,
      (context.sessionToken ?? "").isEmpty, access(context.vaultPath, F_OK) == 0
    else { return nil }
    let setting = PinentrySetting(stored: try UserConfig.read(context.environment)[.pinentry])
    let terminalName = isatty(0) == 1 ? ttyname(0).map { String(cString: $0) } : nil
    guard
      PinentryChoice.program(
        for: setting, terminalName: terminalName, variables: context.environment.variables)
        != nil
    else {
      return nil
    }
    do {
      try AgentLauncher.ensureRunning(context.environment)
    } catch VaultError.agentImpostor {
      // Not vault's agent (forwarding already said so): nothing is asked of it, and the
      // command runs here, where it cannot ask.
      return nil
    }
    return try AgentForwarding.run(
      context,
      arguments: UnlockPromptCommand.arguments(
        vaultPath: AgentMessage.absolutePath(context.vaultPath)))
  }
}
