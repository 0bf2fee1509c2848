import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// Everything a command handler needs: the parsed invocation, paths, the terminal, and how to
/// get the PIN and the master key.
public final class Context {
  /// The parsed line: read here for the global options, and by the command's parameters
  /// (`VaultCommand.spec`), never by a command itself, which reads only what it declared.
  fileprivate let invocation: Invocation
  /// The command's words, such as `["sync", "init"]` (for usage errors).
  var path: [String] { invocation.path }
  let environment: VaultEnvironment
  /// The agent's worker session this command runs in, with the held key; nil outside a worker.
  let session: WorkerSession?
  private(set) lazy var terminal: Terminal? = Terminal.open(
    clientTerminal: session?.terminalFD, path: RunScope.current.terminalPath)
  private(set) var pinFD: Int32?
  /// True in the agent's worker when the client gave `--pin-fd` and kept the descriptor.
  private(set) var pinKeptByClient = false
  /// True when `--pin-fd` was given, in this process or in the agent's worker for its client.
  var pinGiven: Bool { pinFD != nil || pinKeptByClient }
  /// True once this command read a secret line on its own terminal.
  private(set) var askedOnTerminal = false
  /// The pinentry this command asks for the PIN through, when there is no terminal (set by
  /// `UnlockPromptCommand` in the agent's worker).
  var pinentry: PinentryDialog?
  /// A recovery code this command already read and checked (`vault sync clone`), given once to
  /// the next `recoveryCode()` instead of asking again.
  var givenRecoveryCode: SecureBytes?
  /// `--vault PATH`, else `$VAULT_PATH` (an empty variable counts as unset), else the default.
  let vaultPath: String

  /// A context for one run of a command.
  ///
  /// - Throws: `InputRefused` when `--pin-fd` names a descriptor that is not open;
  ///   the parse errors of `--vault` and `--pin-fd` for an invocation the parser did not check.
  init(invocation: Invocation, environment: VaultEnvironment, session: WorkerSession? = nil) throws
  {
    self.invocation = invocation
    self.environment = environment
    self.session = session
    vaultPath = try invocation.value(Keys.vault)?.path ?? environment.defaultVaultPath
    if let fd = try invocation.value(Keys.pinFD).map(Int32.init) {
      // In the agent's worker, the client kept its descriptor: a PIN is asked of it by handing
      // the command back (`WorkerSession.handBack`).
      if let session, fd == session.keptPINFD {
        pinKeptByClient = true
        return
      }
      guard fcntl(fd, F_GETFD) != -1 else {
        throw InputRefused("--pin-fd \(fd) is not an open file descriptor")
      }
      // Read by vault alone: no program it starts may inherit the PIN's descriptor.
      if fd > 2 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      pinFD = fd
    }
  }

  /// Fills a command's parameters from the parsed line: the one way a command gets the values
  /// of what it declared.
  ///
  /// - Throws: as `DeclaredParameter.fill`.
  func fill(_ parameters: [any DeclaredParameter]) throws {
    for parameter in parameters { try parameter.fill(from: invocation) }
  }

  func openVault() throws -> Vault {
    try Vault.open(path: vaultPath, environment: environment)
  }

  var deviceStore: DeviceStore { DeviceStore(environment: environment) }

  func gate() -> SensorGate {
    SensorGate(
      store: deviceStore, clock: environment.clock, terminal: terminal, announcer: pinentry)
  }

  /// One secret line: from --pin-fd when given, else hidden on the terminal.
  ///
  /// - Throws: `VaultError.locked` when there is neither (piped data is never read as a PIN).
  func readSecretLine(prompt: String, what: String = "the PIN") throws -> SecureBytes {
    if pinKeptByClient, let session {
      // A session's grant cannot be handed back (the client has no key to run it with): one
      // line of the client's --pin-fd comes through the connection, as an export's
      // passphrase does.
      guard session.heldKey?.isGrant == true else { session.handBack() }
      guard let line = try session.clientLine() else {
        throw InputRefused("--pin-fd \(session.keptPINFD) ended before a line was read")
      }
      return line
    }
    if let pinentry {
      var label = Substring(prompt)
      while let last = label.last, last == " " || last == ":" { label = label.dropLast() }
      pinentry.set("SETPROMPT", label + ":")
      return try pinentry.getPIN()
    }
    if let pinFD {
      guard let line = try LineReader.readLine(fd: pinFD) else {
        throw InputRefused("--pin-fd \(pinFD) ended before a line was read")
      }
      return line
    }
    guard let terminal else {
      throw NoTerminal(
        message:
          "no terminal to ask for \(what) and no --pin-fd",
        hint: "run it on a terminal, or give \(what) with --pin-fd N")
    }
    askedOnTerminal = true
    return try terminal.readHidden(prompt: prompt)
  }

  /// A PIN; on a terminal, one that is no PIN at all (too short, a control character) is said
  /// and asked again, up to 3 times in all, before anything tries it.
  ///
  /// - Parameter askingAgain: false to leave a malformed one to the caller (a new PIN's rule).
  func readPIN(prompt: String = "PIN: ", askingAgain: Bool = true) throws -> PIN {
    var tries = 0
    while true {
      tries += 1
      let line = try readSecretLine(prompt: prompt)
      do {
        return try PIN(utf8: line)
      } catch let error {
        guard let why = ExitStatus.refusedInput(error),
          askingAgain && pinFD == nil && terminal != nil && tries < Self.promptTries
        else { throw error }
        terminal?.say("\(why); try again\n")
      }
    }
  }

  /// A new PIN: asked twice on a terminal, one line from --pin-fd.
  ///
  /// On a terminal, a PIN too short to set or a repetition that differs is said and asked again,
  /// up to 3 times in all.
  ///
  /// - Parameter replacing: true when the PIN replaces one that keeps unlocking until it is set
  ///   (`vault passwd`), which a refusal says.
  /// - Throws: `InputRefused` or `VaultError.invalidInput` for the last (or, from --pin-fd, the only) refusal.
  func readNewPIN(replacing: Bool = false) throws -> PIN {
    var tries = 0
    while true {
      tries += 1
      do {
        return try readNewPINOnce(replacing: replacing)
      } catch let error {
        guard let why = ExitStatus.refusedInput(error), pinFD == nil && tries < Self.promptTries
        else { throw error }
        terminal?.say("\(why)\n")
      }
    }
  }

  private func readNewPINOnce(replacing: Bool) throws -> PIN {
    let tooShort = InputRefused(
      "a new PIN needs at least \(PIN.minimumNewLength) characters"
        + (replacing ? " (the current PIN still unlocks)" : ""))
    let first: PIN
    do {
      first = try readPIN(prompt: "New PIN: ", askingAgain: false)
    } catch VaultError.invalidInput(.pin(.tooShort)) {
      // Too short even to be an old PIN: the rule for a new one is the one to show.
      throw tooShort
    }
    guard first.isLongEnoughToSet else { throw tooShort }
    if pinFD == nil {
      let second = try readPIN(prompt: "Repeat the new PIN: ", askingAgain: false)
      guard first.bytes == second.bytes else {
        throw InputRefused("the two PINs differ; try again")
      }
    }
    return first
  }

  /// `1 guarded entry`, `2 guarded entries`.
  static func guardedEntries(_ count: Int) -> String {
    "\(count) guarded entr\(count == 1 ? "y" : "ies")"
  }

  /// How many times a prompt on the terminal asks again after a mistake, in all.
  static let promptTries = 3

  /// The access policy over `vault`, with this command's sensor.
  func access(_ vault: Vault) -> VaultAccess { VaultAccess(vault: vault, gate: gate()) }

  /// Opens the vault at `vaultPath` for `purpose`, asking this command's terminal or descriptor
  /// for what the policy needs.
  ///
  /// - Throws: the errors of `VaultAccess.open`.
  func open(_ purpose: AccessPurpose) throws -> UnlockedVault {
    let unlocked: UnlockedVault
    switch try Vault.openAny(path: vaultPath, environment: environment) {
    case .current(let vault):
      unlocked = try access(vault).open(for: purpose, via: self)
    case .formatOne(let old):
      unlocked = try VaultAccess.openMigrating(old, gate: gate(), for: purpose, via: self) {
        Output.error("Upgraded the vault to format \(Header.currentFormat).")
      }
    }
    opened = unlocked
    return unlocked
  }

  /// The vault this command opened with its key, if it did: a name not found is explained from
  /// its names (`NameSuggestion`), and never without the key.
  private(set) var opened: UnlockedVault?
}

extension Context: CredentialSource {
  /// `VAULT_SESSION`, when set.
  public var sessionToken: String? { environment.variables["VAULT_SESSION"] }

  /// True when a PIN can be obtained (from --pin-fd or the terminal).
  public var canAskForPIN: Bool {
    pinFD != nil || pinKeptByClient || terminal != nil || pinentry != nil
  }

  /// 3 on a terminal or through a pinentry, 1 from --pin-fd.
  public var pinTries: Int {
    pinFD == nil && (terminal != nil || pinentry != nil) ? Self.promptTries : 1
  }

  /// Says on the terminal (or in the pinentry, `SETERROR`) that the PIN was wrong, before it is
  /// asked for again.
  public func pinRejected(_ error: VaultError) {
    let message = "\(ExitStatus.report(error).message); try again"
    if let pinentry {
      pinentry.set("SETERROR", message)
    } else {
      terminal?.say(message + "\n")
    }
  }

  /// The PIN, from --pin-fd or hidden on the terminal, with a prompt that says what it is for.
  public func pin(_ request: PINRequest) throws -> PIN {
    switch request {
    case .unlock: try readPIN()
    case .current: try readPIN(prompt: "Current PIN: ")
    case .guardedEntry(let name): try readPIN(prompt: "PIN for guarded '\(name)': ")
    case .lockedOutGuardedEntry(let name):
      try readPIN(prompt: "Sensor locked out; PIN for '\(name)': ")
    case .guardedEntries(let count):
      try readPIN(prompt: "PIN for \(Self.guardedEntries(count)) to export: ")
    case .lockedOutGuardedEntries(let count):
      try readPIN(prompt: "Sensor locked out; PIN for \(Self.guardedEntries(count)) to export: ")
    }
  }

  /// The agent's key, in the agent's worker for this command's vault.
  public var heldKey: HeldKey? {
    guard let session, AgentMessage.absolutePath(vaultPath) == session.vaultPath else { return nil }
    return session.heldKey
  }

  /// The agent lets the vault go (its hold and every grant of it), and with `everything` every
  /// other vault's plain hold too.
  public func heldKeyRejected(everything: Bool) {
    let agent = AgentClient(environment: environment)
    if everything { agent.forget(vaultID: nil, vaultPath: nil) }
    agent.forget(vaultID: session?.heldKey?.vaultID, vaultPath: vaultPath)
  }

  /// Keeps the vault whose key was released, for `opened`.
  public func keyReleased(_ vault: UnlockedVault) { opened = vault }

  /// The recovery code, from --pin-fd or hidden on the terminal, in canonical form.
  ///
  /// On a terminal, a code of the wrong length or alphabet (or a mistyped check group), or one
  /// refused as wrong, is said and asked again, up to 3 times in all.
  public func recoveryCode() throws -> SecureBytes {
    try recoveryCode(prompt: "Recovery code: ") { _ in }
  }

  /// `recoveryCode()` with its own prompt, each code checked by `check` (which throws
  /// `VaultError.wrongRecoveryCode` for a code that is not the one in force).
  func recoveryCode(prompt: String, check: (SecureBytes) throws -> Void) throws -> SecureBytes {
    if let given = givenRecoveryCode {
      givenRecoveryCode = nil
      try check(given)
      return given
    }
    var tries = 0
    while true {
      tries += 1
      do {
        let code = try RecoveryCode.parse(
          readSecretLine(prompt: prompt, what: "the recovery code"))
        try check(code)
        return code
      } catch let error where pinFD == nil && tries < Self.promptTries {
        guard VaultError(error) == .wrongRecoveryCode || ExitStatus.refusedInput(error) != nil,
          let report = ExitStatus.report(of: error)
        else { throw error }
        terminal?.say("\(report.message); try again\n")
      }
    }
  }
}
