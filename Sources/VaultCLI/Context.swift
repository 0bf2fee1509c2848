import Foundation
import Glibc
import VaultCore

/// Everything a command handler needs: the parsed invocation, paths, the terminal, and how to
/// get the PIN and the master key.
public final class Context {
  let invocation: Invocation
  let environment: VaultEnvironment
  private(set) lazy var terminal: Terminal? = Terminal.open()
  private(set) var pinFD: Int32?
  /// `--vault PATH`, else `$VAULT_PATH` (an empty variable counts as unset), else the default.
  let vaultPath: String

  /// A context for one run of a command.
  ///
  /// - Throws: `VaultError.invalidInput` when `--pin-fd` names a descriptor that is not open;
  ///   the parse errors of `--vault` and `--pin-fd` for an invocation the parser did not check.
  init(invocation: Invocation, environment: VaultEnvironment) throws {
    self.invocation = invocation
    self.environment = environment
    vaultPath = try invocation.value(Keys.vault)?.path ?? environment.defaultVaultPath
    if let fd = try invocation.value(Keys.pinFD).map(Int32.init) {
      guard fcntl(fd, F_GETFD) != -1 else {
        throw VaultError.invalidInput("--pin-fd \(fd) is not an open file descriptor")
      }
      pinFD = fd
    }
  }

  /// True when the flag was given.
  func flag(_ key: Flag) -> Bool { invocation.flag(key) }

  /// The option's value, or nil when it was not given.
  func value<Value>(_ key: Option<Value>) throws -> Value? { try invocation.value(key) }

  /// A required positional argument.
  func argument<Value>(_ key: Argument<Value>) throws -> Value { try invocation.argument(key) }

  /// An optional positional argument.
  func argumentIfGiven<Value>(_ key: Argument<Value>) throws -> Value? {
    try invocation.argumentIfGiven(key)
  }

  func openVault() throws -> Vault {
    try Vault.open(path: vaultPath, environment: environment)
  }

  var deviceStore: DeviceStore { DeviceStore(environment: environment) }

  func gate() -> SensorGate {
    SensorGate(store: deviceStore, clock: environment.clock, terminal: terminal)
  }

  func authenticator(_ vault: Vault) -> Authenticator {
    Authenticator(vault: vault, gate: gate())
  }

  /// True when a PIN can be obtained (from --pin-fd or the terminal).
  var canAskForPIN: Bool { pinFD != nil || terminal != nil }

  /// One secret line: from --pin-fd when given, else hidden on the terminal.
  ///
  /// - Throws: `VaultError.locked` when there is neither (piped data is never read as a PIN).
  func readSecretLine(prompt: String) throws -> SecureBytes {
    if let pinFD {
      guard let line = try LineReader.readLine(fd: pinFD) else {
        throw VaultError.invalidInput("--pin-fd \(pinFD) ended before a line was read")
      }
      return line
    }
    guard let terminal else {
      throw VaultError.noTerminal(
        "no terminal to ask for the PIN and no --pin-fd",
        hint: "run it on a terminal, or give the PIN with --pin-fd N")
    }
    return try terminal.readHidden(prompt: prompt)
  }

  /// The PIN of `vault`, refused before anything is typed while a PIN delay runs.
  ///
  /// - Throws: `VaultError.pinDelay` with the wait, or the errors of `readSecretLine`.
  func readPIN(for vault: Vault, prompt: String = "PIN: ") throws -> PIN {
    let wait = vault.limiter.currentDelay(try deviceStore.read())
    if wait > 0 { throw VaultError.pinDelay(seconds: wait) }
    return try readPIN(prompt: prompt)
  }

  func readPIN(prompt: String = "PIN: ") throws -> PIN {
    try PIN(utf8: readSecretLine(prompt: prompt))
  }

  /// A new PIN: asked twice on a terminal, one line from --pin-fd.
  func readNewPIN() throws -> PIN {
    let first = try readPIN(prompt: "New PIN: ")
    if pinFD == nil {
      let second = try readPIN(prompt: "Repeat the new PIN: ")
      guard first.bytes == second.bytes else {
        throw VaultError.invalidInput("the two PINs differ; try again")
      }
    }
    return first
  }

  /// How the key was obtained: a session needs a fresh biometric check for guarded entries.
  enum KeySource { case session, inline }

  /// The master key: from a valid `VAULT_SESSION`, else the full PIN + biometric check inline.
  ///
  /// - Throws: `VaultError.locked` (exit 10) when the session is invalid and there is no way to
  ///   ask; the authentication errors otherwise.
  func masterKey(_ vault: Vault, reason: String) throws -> (SymmetricKey, KeySource) {
    var sessionProblem: VaultError?
    if let token = environment.variables["VAULT_SESSION"], !token.isEmpty {
      do {
        let (key, _) = try SessionStore(environment: environment).open(
          token: token, vaultID: vault.vaultID)
        try vault.verifyHeader(masterKey: key)
        return (key, .session)
      } catch let error as VaultError {
        guard case .locked = error else { throw error }
        sessionProblem = error
      }
    }
    guard canAskForPIN else {
      throw sessionProblem ?? VaultError.locked("no valid session and no terminal to ask on")
    }
    let pin = try readPIN(for: vault)
    return (try authenticator(vault).unlock(pin: pin, reason: reason), .inline)
  }
}
