import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `vault __unlock-prompt`, which the unlock agent runs in a worker for a client without a
/// terminal: the PIN through a pinentry program on the client's display, the match from the
/// sensor while a pinentry message shows the reason, then the key handed to this agent, which
/// holds it as `vault unlock` does (vault(1) SECURITY).
struct UnlockPromptCommand: VaultCommand {
  static let about = CommandAbout(
    "__unlock-prompt",
    "Unlock the vault for the agent through a pinentry (run by the agent for a client).",
    hidden: true)

  /// The command line the agent runs this for, and the only one it runs on a vault it does
  /// not hold.
  static func arguments(vaultPath: String) -> [String] {
    ["__unlock-prompt", "--vault", vaultPath]
  }

  func run(_ context: Context) throws -> Int32 {
    guard let session = context.session, session.heldKey == nil else {
      throw NoTerminal(
        message: "no terminal to ask for the PIN on", hint: "run 'vault unlock' on a terminal")
    }
    let config = try UserConfig.read(context.environment)
    let terminalName = isatty(0) == 1 ? ttyname(0).map { String(cString: $0) } : nil
    guard
      let program = PinentryChoice.program(
        for: PinentrySetting(stored: config[.pinentry]), terminalName: terminalName,
        variables: context.environment.variables)
    else {
      throw NoTerminal(
        message: "no terminal and no pinentry program to ask for the PIN",
        hint: "run 'vault unlock' on a terminal, or name one: vault config --global pinentry PATH")
    }
    let real = try PinentrySetting.checkProgram(program)
    let variables = context.environment.variables
    PinentryChoice.prepareEnvironment(from: variables)
    // A debug build's tests shorten vault's own limits on the program.
    #if DEBUG
      let limit = variables["VAULT_TEST_PINENTRY_KILL"].flatMap(Double.init)
    #else
      let limit: Double? = nil
    #endif
    let dialog = try PinentryDialog(
      program: real, options: PinentryChoice.options(variables, terminalName: terminalName),
      replyAfter: limit ?? Double(PinentryDialog.replySeconds))
    defer { dialog.close() }
    if let limit { dialog.killAfter = limit }
    dialog.set("SETTIMEOUT", "\(PinentryDialog.timeoutSeconds)")
    dialog.set("SETTITLE", "vault")
    dialog.set(
      "SETDESC",
      "Unlock the vault \(session.vaultPath) for every shell of yours: type its PIN.")
    context.pinentry = dialog
    let unlocked = try context.open(.startSession)
    let vault = unlocked.vault
    try AgentClient(environment: context.environment).hold(
      vaultID: vault.vaultID, vaultPath: vault.path, key: unlocked.masterKey,
      idle: SessionLedger.defaultIdle)
    SessionLedger(environment: context.environment).clearRevocation(vault.vaultID)
    // The command this unlock is for runs next, through the agent, and says what answers the
    // sensor still has queued: said once, by it.
    RunScope.current.sensorConsulted = nil
    Output.error(
      "Unlocked \(vault.path) through \(program) for every shell of yours: it locks after"
        + " \(ExitStatus.duration(Int(SessionLedger.defaultIdle))) without use (at most 8 h), or"
        + " with 'vault lock'.")
    return ExitCode.success.rawValue
  }
}
