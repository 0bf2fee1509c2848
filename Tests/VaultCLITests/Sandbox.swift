import Foundation
import VaultAgent
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// A throwaway HOME in which `vault` and `biosim` run, with no controlling terminal, as a script
/// would run them: a `TemporaryHome` and the environment of the commands.
///
/// A command runs in this process through the real entry point (`InProcessRun`) unless it must
/// run as a process of its own (`mustSpawn`), or the sandbox was made `spawning` (a test whose
/// point is a process property: a signal, descriptors, the agent, a kill): then the built binary
/// runs, with the same environment, input and working folder.
final class Sandbox {
  static let pin = "246800"

  /// True when every command runs the built binary.
  let spawning: Bool

  /// The folder, removed with the sandbox.
  let folder: TemporaryHome
  var home: String { folder.path }
  var environment: [String: String]

  /// The folder holding the built executables (the test bundle sits beside them).
  static let binDirectory: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    precondition(n > 0)
    let path = String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return URL(fileURLWithPath: path).deletingLastPathComponent().path
  }()

  convenience init(extra: [String: String] = [:], spawning: Bool = false) {
    self.init(
      folder: TemporaryHome(prefix: "vault-cli-test"), extra: extra, spawning: spawning)
  }

  /// A sandbox whose `XDG_RUNTIME_DIR` is a private folder under `runtimeParent` (such as the
  /// tmpfs `/dev/shm`); throws when it cannot be created.
  convenience init(runtimeIn runtimeParent: String, spawning: Bool = false) throws {
    self.init(
      folder: try TemporaryHome(prefix: "vault-cli-test", runtimeIn: runtimeParent),
      spawning: spawning)
  }

  private init(folder: TemporaryHome, extra: [String: String] = [:], spawning: Bool) {
    self.spawning = spawning
    self.folder = folder
    environment = folder.variables.merging([
      "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", KDFProfile.testSwitch: "1",
    ]) { $1 }
    environment.merge(extra) { $1 }
  }

  var vaultPath: String { folder.vaultPath }

  /// Runs `vault`; with `pin`, appends `--pin-fd N` and writes the PIN lines to descriptor N
  /// (3 for the built binary, which `spawn` runs whatever the command).
  @discardableResult
  func vault(
    _ arguments: [String], stdin: [UInt8]? = nil, pin: [String]? = nil,
    env: [String: String] = [:], spawn: Bool = false
  ) -> Subprocess.Result {
    let variables = environment.merging(env) { $1 }
    let lines = pin.map { Array($0.map { $0 + "\n" }.joined().utf8) }
    guard spawn || spawning || mustSpawn(arguments, variables) else {
      return InProcessRun.run(
        .vault, arguments, environment: variables, stdin: stdin, pin: lines, directory: home)
    }
    return Subprocess.run(
      Self.binDirectory + "/vault", arguments + (pin == nil ? [] : ["--pin-fd", "3"]),
      environment: variables, stdin: stdin, extra: lines.map { (3, $0) }, directory: home)
  }

  /// True when `vault ARGUMENTS` must run as a process of its own: it replaces itself (`run`),
  /// starts the agent or talks to one (the agent answers only the program it is), runs the tour,
  /// stops at a test crash point, or needs a variable the process itself reads (`TZ`, read by
  /// the C library's local time; the thread switch).
  func mustSpawn(_ arguments: [String], _ variables: [String: String]) -> Bool {
    let words = arguments.filter { !$0.hasPrefix("-") }
    let command = words.first ?? ""
    if ["run", "tour", "agent", "__agent", "unlock"].contains(command) { return true }
    if variables.keys.contains(where: {
      ["TZ", "VAULT_TEST_CRASH", "VAULT_TEST_NO_THREADS", "VAULT_TEST_WORKER_PAUSE"].contains($0)
    }) {
      return true
    }
    // An agent listens for this sandbox (or for its session's token): the command may be
    // served by it.
    return AgentFolders.all(VaultEnvironment(variables: variables)).contains {
      access($0 + "/agent.sock", F_OK) == 0
    }
  }

  /// Runs `vault` with the sandbox PIN.
  @discardableResult
  func vaultPIN(
    _ arguments: [String], stdin: [UInt8]? = nil, env: [String: String] = [:],
    spawn: Bool = false
  ) -> Subprocess.Result {
    vault(arguments, stdin: stdin, pin: [Self.pin], env: env, spawn: spawn)
  }

  @discardableResult
  func biosim(_ arguments: [String], env: [String: String] = [:]) -> Subprocess.Result {
    let variables = environment.merging(env) { $1 }
    guard spawning else {
      return InProcessRun.run(
        .biosim, arguments, environment: variables, stdin: nil, pin: nil, directory: home)
    }
    return Subprocess.run(
      Self.binDirectory + "/biosim", arguments, environment: variables, directory: home)
  }

  /// Runs a shell pipeline with the binaries first on PATH.
  func shell(_ script: String, env extra: [String: String] = [:]) -> Subprocess.Result {
    var env = environment.merging(extra) { $1 }
    env["PATH"] = Self.binDirectory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    env["PIN"] = Self.pin
    return Subprocess.run("/bin/sh", ["-c", script], environment: env, directory: home)
  }

  /// A biometric vault with one enrolled finger, activated at init (test KDF).
  func initBiometric(file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(biosim(["enroll", "--label", "right-index"]).status, 0, file: file, line: line)
    XCTAssertEqual(biosim(["next", "match"]).status, 0, file: file, line: line)
    let result = vault(["init", "--kdf", "test"], pin: [Self.pin])
    XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
  }

  /// A PIN-only vault (test KDF).
  func initPINOnly(file: StaticString = #filePath, line: UInt = #line) {
    let result = vault(["init", "--kdf", "test", "--no-biometry"], pin: [Self.pin])
    XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
  }

  /// A PIN-only vault and a session on it: the environment that carries `VAULT_SESSION`.
  func pinOnlySession(file: StaticString = #filePath, line: UInt = #line) -> [String: String] {
    initPINOnly(file: file, line: line)
    let token = vaultPIN(["unlock", "--raw"]).stdoutText.trimmingCharacters(in: .newlines)
    return ["VAULT_SESSION": token]
  }

  /// Runs `body` on the vault file (or the file at `path`) as an attacker with write access would.
  ///
  /// Returns what `body` returns, or nil after recording a failure when it throws.
  @discardableResult
  func tamper<Value>(
    _ path: String? = nil, file: StaticString = #filePath, line: UInt = #line,
    _ body: (VaultFileTamperer) throws -> Value
  ) -> Value? {
    do {
      return try body(VaultFileTamperer(path: path ?? vaultPath))
    } catch {
      XCTFail("tampering with \(path ?? vaultPath): \(error)", file: file, line: line)
      return nil
    }
  }

  /// Rewrites the vault header as an attacker with write access would: `edit` changes the parsed
  /// object, which is stored back as sorted compact JSON (`VaultFileTamperer.editHeader`).
  func editHeader(
    file: StaticString = #filePath, line: UInt = #line, _ edit: (inout [String: Any]) -> Void
  ) {
    tamper(file: file, line: line) { try $0.editHeader(edit) }
  }

  /// `biosim next match` then `vault unlock --raw`; returns the token.
  func unlock(file: StaticString = #filePath, line: UInt = #line) -> String {
    biosim(["next", "match"])
    let result = vaultPIN(["unlock", "--raw"])
    XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
    return result.stdoutText.trimmingCharacters(in: .newlines)
  }

  /// True when `text` is a session token of this release naming this sandbox's agent folder.
  func isSessionToken(_ text: String) -> Bool {
    guard case .token(let token) = SessionToken.parse(text) else { return false }
    return token.folder == folder.runtime + "/vault"
  }

  /// The sensor state as `biosim status --json` reports it.
  func sensor(env: [String: String] = [:]) -> [String: Any] {
    let out = biosim(["status", "--json"], env: env).stdout
    return (try? JSONSerialization.jsonObject(with: Data(out)) as? [String: Any]) ?? [:]
  }

  func statusJSON(env: [String: String] = [:]) -> [String: Any] {
    let out = vault(["status", "--json"], env: env).stdout
    return (try? JSONSerialization.jsonObject(with: Data(out)) as? [String: Any]) ?? [:]
  }
}

extension Subprocess.Result {
  var errorLines: [String] { stderrText.split(separator: "\n").map(String.init) }
}
