import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// A command the agent ran for `vault pick` that failed: it said why on standard error, and
/// pick exits with its code.
struct ReportedByAgent: Error {
  /// The command's exit code.
  let code: Int32
}

/// Where `vault pick` reads names and values: the agent that holds the vault (or the session's
/// grant), asked with `vault list`, `get` and `otp` as any client asks; or, when it does not
/// hold the vault, the vault opened here once, with the PIN and match the policy needs.
///
/// With no terminal and no `--pin-fd`, the agent is first asked to unlock the vault through a
/// pinentry (`PinentryPrompt`), as every command the agent runs is.
enum PickSource {
  /// Through the agent.
  case agent
  /// Opened here.
  case here(UnlockedVault)

  /// The most `get` may give: the content of an entry that is not large
  /// (`EntryStore.streamThreshold`).
  static let contentLimit = EntryStore.streamThreshold

  /// The most `list` may give: 64 MiB of names (100,000 names take a few MiB).
  static let namesLimit = 64 << 20

  /// The source for `context`, with the names under `prefix`, one per line.
  ///
  /// - Throws: `ReportedByAgent` when the agent's `vault list` failed; as `Context.open` and
  ///   `AgentForwarding.capture`.
  static func open(_ context: Context, prefix: String?) throws -> (PickSource, [UInt8]) {
    let arguments = ["list"] + vaultArguments(context) + ["--"] + (prefix.map { [$0] } ?? [])
    var captured = try AgentForwarding.capture(context, arguments: arguments, limit: namesLimit)
    if captured == nil, let code = try PinentryPrompt.unlock(context) {
      guard code == ExitCode.success.rawValue else { throw ReportedByAgent(code: code) }
      captured = try AgentForwarding.capture(context, arguments: arguments, limit: namesLimit)
    }
    if let captured {
      guard captured.code == ExitCode.success.rawValue else {
        throw ReportedByAgent(code: captured.code)
      }
      return (.agent, captured.output.unprotectedBytes)
    }
    let unlocked = try context.open(.use(reason: "pick an entry"))
    var names: [UInt8] = []
    for entry in try unlocked.entries.listing(prefix: prefix ?? "") {
      names += Array(entry.name.utf8) + [10]
    }
    return (.here(unlocked), names)
  }

  /// The content of the entry `name`.
  ///
  /// Through the agent, `vault get`; when the agent hands the read back (a guarded entry of a
  /// PIN-only vault needs the PIN) or has let the vault go since, it is read here, as `vault
  /// get` would read it.
  ///
  /// - Throws: `InputRefused` for a large entry; `ReportedByAgent` when the agent's `vault get`
  ///   failed; as `VaultAccess.readEntry` and `Context.open`.
  func content(_ name: EntryName, _ context: Context) throws -> SecureBytes {
    if case .agent = self {
      let arguments = ["get"] + Self.vaultArguments(context) + ["--", name.value]
      if let output = try Self.ask(context, arguments, limit: Self.contentLimit, name: name) {
        return output
      }
    }
    return try opened(name, context).content
  }

  /// The current one-time code of the entry `name` (an HOTP counter advances): through the
  /// agent `vault otp`, else as `content` reads here.
  ///
  /// - Throws: `ReportedByAgent` when the agent's `vault otp` failed; as `content` and
  ///   `OneTimeCodeCommand.current`.
  func oneTimeCode(_ name: EntryName, _ context: Context) throws -> SecureBytes {
    if case .agent = self {
      let arguments = ["otp"] + Self.vaultArguments(context) + ["--", name.value]
      if let output = try Self.ask(context, arguments, limit: 64, name: name) { return output }
    }
    let (unlocked, content) = try opened(name, context)
    var made: SecureBytes?
    try OneTimeCodeCommand.current(
      of: name, content: content, in: unlocked, now: context.environment.clock.wallNow
    ) { code, _ in made = code }
    return made ?? SecureBytes(count: 0)
  }

  /// The entry `name` read here: in the vault opened for the names, or opened now for it.
  private func opened(_ name: EntryName, _ context: Context) throws -> (
    unlocked: UnlockedVault, content: SecureBytes
  ) {
    let unlocked: UnlockedVault
    let entry: OpenedEntry
    switch self {
    case .here(let opened):
      unlocked = opened
      entry = try context.access(opened.vault).readEntry(name, in: opened, via: context)
    case .agent:
      unlocked = try context.open(.readEntry(name))
      guard let read = unlocked.entry else { throw VaultError.notFound(name.value) }
      entry = read
    }
    guard !entry.metadata.isLarge else { throw Self.tooLarge(name) }
    return (unlocked, try entry.content)
  }

  /// `--vault PATH` for the vault this command names, as the agent's worker compares it.
  private static func vaultArguments(_ context: Context) -> [String] {
    ["--vault", AgentMessage.absolutePath(context.vaultPath)]
  }

  /// The output of `arguments`, run by the agent; nil when the agent did not run it.
  private static func ask(
    _ context: Context, _ arguments: [String], limit: Int, name: EntryName
  ) throws -> SecureBytes? {
    let captured: AgentForwarding.Captured?
    do {
      captured = try AgentForwarding.capture(context, arguments: arguments, limit: limit)
    } catch is InputRefused {
      throw tooLarge(name)
    }
    guard let captured else { return nil }
    guard captured.code == ExitCode.success.rawValue else {
      throw ReportedByAgent(code: captured.code)
    }
    return captured.output
  }

  private static func tooLarge(_ name: EntryName) -> InputRefused {
    InputRefused(
      "'\(Output.printable(name.value))' is larger than"
        + " \(EntryStore.streamThreshold >> 20) MiB: pick gives a password or field of a text"
        + " entry; read it with 'vault get'")
  }
}
