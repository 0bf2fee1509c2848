import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// What the generated-file, command-table and shell-completion tests share: the package root,
/// the tools they need (failing with the Debian package to install), and a pseudo-terminal.
enum GeneratorTestSupport {
  /// A required tool is missing; the failure was already recorded.
  struct MissingTool: Error {}

  /// The package root: three levels above this file.
  static let packageRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// The full path of `name`, or a recorded failure naming the Debian package that provides it.
  static func tool(
    _ name: String, package: String, file: StaticString = #filePath, line: UInt = #line
  ) throws -> String {
    for folder in ["/usr/local/bin", "/usr/bin", "/bin"]
    where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
      return "\(folder)/\(name)"
    }
    XCTFail(
      "\(name) is not installed: the test needs it (apt-get install \(package))",
      file: file, line: line)
    throw MissingTool()
  }

  /// Checks that a file exists, or records a failure naming the Debian package that provides it.
  static func requireFile(
    _ path: String, package: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    guard FileManager.default.fileExists(atPath: path) else {
      XCTFail(
        "\(path) is missing: the test needs it (apt-get install \(package))", file: file,
        line: line)
      throw MissingTool()
    }
  }

  /// One step of a terminal session: type text, or wait until a file holds `text` `count` times.
  enum Step {
    case type(String)
    case wait(file: String, text: String, count: Int)
  }

  /// Runs `argv` on a pseudo-terminal (Python's `pty`), typing and waiting as `steps` say.
  ///
  /// Each wait lasts at most 20 s; then the program is killed. Returns the waits that timed out
  /// and everything the terminal showed.
  static func terminal(_ argv: [String], environment: [String: String], steps: [Step]) throws
    -> (timedOut: [String], output: String)
  {
    let python = try tool("python3", package: "python3")
    let plan: [[String: Any]] = steps.map { step in
      switch step {
      case .type(let text): ["type": text]
      case .wait(let file, let text, let count): ["file": file, "text": text, "count": count]
      }
    }
    let input = try JSONSerialization.data(withJSONObject: ["argv": argv, "steps": plan])
    let result = Subprocess.run(
      python, ["-c", terminalDriver], environment: environment, stdin: Array(input))
    guard result.status == 0,
      let report = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
    else {
      XCTFail("the terminal driver failed: \(result.stderrText)")
      throw MissingTool()
    }
    return (report["timed_out"] as? [String] ?? [], report["output"] as? String ?? "")
  }

  private static let terminalDriver = #"""
    import json, os, pty, select, sys, time
    plan = json.load(sys.stdin)
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(plan["argv"][0], plan["argv"], dict(os.environ))
    output = b""
    def pump(timeout):
        global output
        ready, _, _ = select.select([fd], [], [], timeout)
        if ready:
            try:
                output += os.read(fd, 65536)
            except OSError:
                pass
    def holds(step):
        try:
            with open(step["file"], "rb") as f:
                return f.read().count(step["text"].encode()) >= step["count"]
        except FileNotFoundError:
            return False
    timed_out = []
    for step in plan["steps"]:
        if "type" in step:
            os.write(fd, step["type"].encode())
            continue
        deadline = time.time() + 20
        while not holds(step) and time.time() < deadline:
            pump(0.05)
        if not holds(step):
            timed_out.append("%s x%d in %s" % (step["text"], step["count"], step["file"]))
            break
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    print(json.dumps({"timed_out": timed_out, "output": output.decode("utf-8", "replace")}))
    """#
}
