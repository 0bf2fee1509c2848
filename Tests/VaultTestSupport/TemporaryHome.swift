import Foundation
import VaultAgent
import VaultCore
import VaultFormat

/// A throwaway HOME for one test: a private (0700) folder under `root` that `HOME`,
/// `XDG_DATA_HOME`, `XDG_STATE_HOME` and `XDG_RUNTIME_DIR` point into, removed with everything in
/// it when the value is released.
///
/// XCTest keeps every test case alive until the run ends, so a test case holding one in a
/// property releases it in `tearDown`.
public final class TemporaryHome: Sendable {
  /// Where homes are made: `VAULT_TEST_TMPDIR` when set, else the tmpfs `/dev/shm` when this user
  /// can write there (an fsync costs nothing there), else `/tmp`.
  public static let root: String = {
    if let chosen = getenv("VAULT_TEST_TMPDIR").map({ String(cString: $0) }), !chosen.isEmpty {
      return chosen
    }
    return access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp"
  }()

  /// The folder, such as `/dev/shm/vault-test-Ab12Cd`.
  public let path: String
  /// `XDG_RUNTIME_DIR`, created 0700: `path/run`, or a folder of its own (`init(prefix:runtimeIn:)`).
  public let runtime: String

  /// Creates `ROOT/PREFIX-XXXXXX` and its `run` folder; stops the test run when `root` is not
  /// writable, since no test could run then.
  public init(prefix: String = "vault-test") {
    guard let made = Self.makeFolder("\(Self.root)/\(prefix)-XXXXXX") else {
      fatalError(
        "cannot create a temporary folder in \(Self.root): \(String(cString: strerror(errno)))")
    }
    path = made
    runtime = made + "/run"
    mkdir(runtime, 0o700)
  }

  /// Like `init(prefix:)`, with `XDG_RUNTIME_DIR` in a private folder of its own under `parent`
  /// (such as the tmpfs `/dev/shm`), removed with the home.
  ///
  /// - Throws: `POSIXError` with `mkdtemp`'s errno when a folder cannot be created.
  public init(prefix: String = "vault-test", runtimeIn parent: String) throws {
    guard let made = Self.makeFolder("\(parent)/\(prefix)-run-XXXXXX") else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    guard let home = Self.makeFolder("\(Self.root)/\(prefix)-XXXXXX") else {
      let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      try? FileManager.default.removeItem(atPath: made)
      throw failure
    }
    path = home
    runtime = made
  }

  deinit {
    stopAgent()
    try? FileManager.default.removeItem(atPath: path)
    if !runtime.hasPrefix(path + "/") { try? FileManager.default.removeItem(atPath: runtime) }
  }

  /// Ends the unlock agent a test started in this home, if one listens (its pid from
  /// `SO_PEERCRED`), and waits up to two seconds for its socket to go.
  public func stopAgent() {
    let environment = environment()
    // The connection is closed before waiting: the agent reads a request from it first.
    guard let pid = AgentListener.pid(AgentSocket.path(environment)) else { return }
    kill(pid, SIGTERM)
    let socketPath = AgentSocket.path(environment)
    for _ in 0..<200 where FileManager.default.fileExists(atPath: socketPath) { usleep(10_000) }
  }

  /// `HOME` and the three XDG folders, for a child process's environment.
  public var variables: [String: String] {
    [
      "HOME": path, "XDG_DATA_HOME": path + "/data", "XDG_STATE_HOME": path + "/state",
      "XDG_RUNTIME_DIR": runtime,
    ]
  }

  /// The environment the vault library reads: `variables`, plus (or replaced by) `extra`.
  public func environment(_ extra: [String: String] = [:]) -> VaultEnvironment {
    VaultEnvironment(variables: variables.merging(extra) { $1 })
  }

  /// Where the vault file goes by default: `XDG_DATA_HOME/vault/vault.db`.
  public var vaultPath: String { path + "/data/vault/vault.db" }

  /// `mkdtemp(3)` on `template` (ending in `XXXXXX`): a new 0700 folder, or nil.
  private static func makeFolder(_ template: String) -> String? {
    var bytes = Array(template.utf8CString)
    let made = bytes.withUnsafeMutableBufferPointer { $0.baseAddress.flatMap { mkdtemp($0) } }
    guard made != nil else { return nil }
    return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
