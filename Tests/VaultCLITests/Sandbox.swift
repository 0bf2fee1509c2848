import Foundation
import XCTest

@testable import VaultCLI

/// A throwaway HOME in which the built `vault` and `biosim` binaries run, with no controlling
/// terminal, as a script would run them.
final class Sandbox {
  static let pin = "2468"

  let home: String
  var environment: [String: String]

  /// The folder holding the built executables (the test bundle sits beside them).
  static let binDirectory: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    precondition(n > 0)
    return URL(fileURLWithPath: String(cString: buffer)).deletingLastPathComponent().path
  }()

  init(extra: [String: String] = [:]) {
    var template = Array("/tmp/vault-cli-test-XXXXXX".utf8CString)
    _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    home = String(cString: template)
    mkdir(home + "/run", 0o700)
    environment = [
      "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state",
      "XDG_RUNTIME_DIR": home + "/run", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
    ]
    environment.merge(extra) { $1 }
  }

  deinit { try? FileManager.default.removeItem(atPath: home) }

  var vaultPath: String { home + "/data/vault/vault.db" }

  /// Runs `vault`; with `pin`, appends `--pin-fd 3` and writes the PIN lines to descriptor 3.
  @discardableResult
  func vault(
    _ arguments: [String], stdin: [UInt8]? = nil, pin: [String]? = nil,
    env: [String: String] = [:]
  ) -> Subprocess.Result {
    let extra = pin.map { (fd: Int32(3), data: Array($0.map { $0 + "\n" }.joined().utf8)) }
    return Subprocess.run(
      Self.binDirectory + "/vault", arguments + (pin == nil ? [] : ["--pin-fd", "3"]),
      environment: environment.merging(env) { $1 }, stdin: stdin, extra: extra)
  }

  /// Runs `vault` with the sandbox PIN.
  @discardableResult
  func vaultPIN(_ arguments: [String], stdin: [UInt8]? = nil, env: [String: String] = [:])
    -> Subprocess.Result
  {
    vault(arguments, stdin: stdin, pin: [Self.pin], env: env)
  }

  @discardableResult
  func biosim(_ arguments: [String]) -> Subprocess.Result {
    Subprocess.run(Self.binDirectory + "/biosim", arguments, environment: environment)
  }

  /// Runs a shell pipeline with the binaries first on PATH.
  func shell(_ script: String, env extra: [String: String] = [:]) -> Subprocess.Result {
    var env = environment.merging(extra) { $1 }
    env["PATH"] = Self.binDirectory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    env["PIN"] = Self.pin
    return Subprocess.run("/bin/sh", ["-c", script], environment: env)
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

  /// Rewrites the vault header as an attacker with write access would: `statement` is Python
  /// that changes the dict `header` (base64 is imported); the body is stored back as sorted JSON.
  func editHeader(_ statement: String, file: StaticString = #filePath, line: UInt = #line) {
    let script = """
      import base64, json, sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      header = json.loads(db.execute('select body from header').fetchone()[0])
      \(statement)
      body = json.dumps(header, sort_keys=True, separators=(',', ':')).encode()
      db.execute('update header set body = ?', (body,))
      db.commit()
      """
    let edited = Subprocess.run(
      "/usr/bin/env", ["python3", "-c", script, vaultPath], environment: environment)
    XCTAssertEqual(edited.status, 0, edited.stderrText, file: file, line: line)
  }

  /// `biosim next match` then `vault unlock --raw`; returns the token.
  func unlock(file: StaticString = #filePath, line: UInt = #line) -> String {
    biosim(["next", "match"])
    let result = vaultPIN(["unlock", "--raw"])
    XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
    return result.stdoutText.trimmingCharacters(in: .newlines)
  }

  /// The sensor state as `biosim status --json` reports it.
  func sensor() -> [String: Any] {
    let out = biosim(["status", "--json"]).stdout
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
