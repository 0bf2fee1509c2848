import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// The terminal paths, driven under a pseudo-terminal by a small Python `pty` script: hidden PIN
/// entry, the simulated sensor's prompt, and echo restored after Ctrl-C.
final class TerminalTests: XCTestCase {
  override func setUpWithError() throws {
    try TestTier.requireSystem("a terminal")
  }

  /// Runs argv[1:] under a pty.
  ///
  /// Script lines on stdin: `expect TEXT` waits for TEXT in the output, `send TEXT` types it (\\n,
  /// \\r and \\x03 escapes), `sendre REGEX` types the last text of the output REGEX matches
  /// (`sendre-typo` with its sixth character changed, `sendre-swap` with two neighbours
  /// swapped) and Enter, `echo` records whether ECHO is on now, `shell CMD` runs CMD with
  /// /bin/sh (no terminal) and waits for it. Prints a JSON object: exit
  /// status, the echo flags recorded, echo/icanon after exit, output.
  static let driver = #"""
    import json, os, pty, select, signal, sys, termios, time
    steps = [line.rstrip("\n").split(" ", 1) for line in sys.stdin if line.strip()]
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.argv[1], sys.argv[1:])
    buffer, echoes, dumpable = b"", [], []
    def read_some(timeout):
        global buffer
        ready, _, _ = select.select([fd], [], [], timeout)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return False
            if not chunk:
                return False
            buffer += chunk
        return True
    for step in steps:
        kind, arg = step[0], (step[1] if len(step) > 1 else "")
        if kind == "expect":
            deadline = time.time() + 20
            while arg.encode() not in buffer and time.time() < deadline:
                if not read_some(0.1):
                    break
        elif kind == "send":
            time.sleep(0.05)
            os.write(fd, arg.encode().decode("unicode_escape").encode("latin-1"))
        elif kind.startswith("sendre"):
            import re
            found = re.findall(arg, buffer.decode("utf-8", "replace"))
            text = found[-1] if found else ""
            if kind == "sendre-typo" and text:
                text = text[:5] + ("1" if text[5] != "1" else "2") + text[6:]
            if kind == "sendre-swap" and text:
                i = next(i for i in range(len(text) - 1) if text[i] != text[i + 1] and "-" not in text[i:i + 2])
                text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
            time.sleep(0.05)
            os.write(fd, (text + "\r").encode())
        elif kind == "shell":
            import subprocess
            subprocess.run(["/bin/sh", "-c", arg], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elif kind == "tstp":
            os.kill(pid, signal.SIGTSTP)
            time.sleep(0.2)
        elif kind == "echo":
            echoes.append(bool(termios.tcgetattr(fd)[3] & termios.ECHO))
        elif kind == "limits":
            try:
                with open("/proc/%d/limits" % pid) as f:
                    limits = [l for l in f if l.startswith("Max core file size")][0].split()[4:6]
            except PermissionError:
                limits = ["unreadable"]  # a non-dumpable process's /proc files belong to root
            dumpable.append(limits)
    attrs = None
    # A program still waiting for input the script never sends is killed (137), not waited on.
    deadline = time.time() + 60
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.time() > deadline:
            os.kill(pid, signal.SIGKILL)
        read_some(0.05)
    attrs = termios.tcgetattr(fd)
    while read_some(0.05):
        pass
    code = os.waitstatus_to_exitcode(status)
    print(json.dumps({"status": code if code >= 0 else 128 - code, "echoes": echoes,
        "core_limits": dumpable, "echo_after": bool(attrs[3] & termios.ECHO), "icanon_after": bool(attrs[3] & termios.ICANON),
        "output": buffer.decode("utf-8", "replace")}))
    """#

  struct Run: Decodable {
    var status: Int
    var echoes: [Bool]
    var core_limits: [[String]]
    var echo_after: Bool
    var icanon_after: Bool
    var output: String
  }

  func drive(_ box: Sandbox, _ arguments: [String], script: [String]) throws -> Run {
    try Self.drive(box, arguments, script: script)
  }

  /// Runs `vault ARGUMENTS` of `box` under a pty, typing `script` (`driver`).
  static func drive(_ box: Sandbox, _ arguments: [String], script: [String]) throws -> Run {
    let result = Subprocess.run(
      "/usr/bin/env", ["python3", "-c", Self.driver, Sandbox.binDirectory + "/vault"] + arguments,
      environment: box.environment, stdin: Array((script.joined(separator: "\n") + "\n").utf8))
    XCTAssertEqual(result.status, 0, result.stderrText)
    return try JSONDecoder().decode(Run.self, from: Data(result.stdout))
  }

  func testCtrlCAtThePINPromptRestoresEcho() throws {
    let box = Sandbox()
    box.initPINOnly()
    let run = try drive(
      box, ["list"], script: ["expect PIN: ", "echo", "limits", "send \\x03"])
    XCTAssertEqual(run.status, 130)
    XCTAssertEqual(
      run.core_limits.map { Array($0.prefix(1)) }, geteuid() == 0 ? [["0"]] : [["unreadable"]],
      "core dumps are disabled at start-up (the soft limit; the hard one stays for vault run)")
    XCTAssertEqual(run.echoes, [false])
    XCTAssertTrue(run.echo_after)
    XCTAssertTrue(run.icanon_after)
  }

  /// Ctrl-Z at the PIN prompt: the shell gets echo back while stopped; on resume echo is off
  /// again and the prompt is shown again. (The test's process group is orphaned, so the kernel
  /// discards the stop itself and only the resume path runs.)
  func testResumingAfterCtrlZAtThePINPromptTurnsEchoOffAgain() throws {
    let box = Sandbox()
    box.initPINOnly()
    let run = try drive(
      box, ["list"],
      script: ["expect PIN: ", "tstp", "echo", "send \(Sandbox.pin)\\n"])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertEqual(run.echoes, [false])
    XCTAssertEqual(run.output.components(separatedBy: "PIN: ").count, 3, run.output)
    XCTAssertFalse(run.output.contains(Sandbox.pin))
    XCTAssertTrue(run.echo_after)
  }

  func testNoPINIsAskedForWhileADelayRuns() throws {
    let box = Sandbox()
    box.initPINOnly()
    for attempt in 1...5 { box.vault(["list"], pin: ["000\(attempt)"]) }
    let run = try drive(box, ["list"], script: [])
    XCTAssertEqual(run.status, 14, run.output)
    XCTAssertFalse(run.output.contains("PIN:"), run.output)
    XCTAssertTrue(run.output.contains("too many wrong PINs; try again in "), run.output)
  }

  func testTheSensorPromptSaysItIsSimulatedAndEnterMatches() throws {
    let box = Sandbox()
    box.initBiometric()
    let run = try drive(
      box, ["unlock"],
      script: [
        "expect PIN: ", "echo", "send \(Sandbox.pin)\\n", "expect Ctrl-C: cancel", "echo",
        "send \\r",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertEqual(run.echoes, [false, false])
    XCTAssertTrue(
      run.output.contains("[simulated Touch ID sensor] unlock the vault (attempt 1 of 3)"))
    XCTAssertTrue(
      run.output.contains("Unlocked \(box.vaultPath) for every shell of yours"), run.output)
    XCTAssertFalse(run.output.contains(Sandbox.pin), "the PIN is never echoed")
    XCTAssertTrue(run.echo_after)
  }

  func testAnOpticIDPromptAsksForAnIris() throws {
    let box = Sandbox()
    box.biosim(["hardware", "optic-id"])
    box.initBiometric()
    let run = try drive(
      box, ["unlock"],
      script: ["expect PIN: ", "send \(Sandbox.pin)\\n", "expect Ctrl-C: cancel", "send \\r"])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(
      run.output.contains(
        "[simulated Optic ID sensor] unlock the vault (attempt 1 of 2)\r\n"
          + "  Enter: matching iris   n: non-matching iris   r: poor scan   Ctrl-C: cancel"),
      run.output)
  }

  func testTheFallbackKeyShowsAfterAFailedAttempt() throws {
    let box = Sandbox()
    box.initBiometric()
    let run = try drive(
      box, ["unlock"],
      script: [
        "expect PIN: ", "send \(Sandbox.pin)\\n", "expect Ctrl-C: cancel", "send f", "send r",
        "expect attempt 1 of 3", "send n", "expect f: fallback button (no PIN-only path)", "send f",
      ])
    XCTAssertEqual(run.status, 20, run.output)
    XCTAssertTrue(run.output.contains("user fallback (LAError -3)"), run.output)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 1, "f before a failure is ignored")
  }

  func testCtrlCAtTheSensorPromptCancelsWithExit13() throws {
    let box = Sandbox()
    box.initBiometric()
    let run = try drive(
      box, ["unlock"],
      script: ["expect PIN: ", "send \(Sandbox.pin)\\n", "expect Ctrl-C: cancel", "send \\x03"])
    XCTAssertEqual(run.status, 13, run.output)
    XCTAssertTrue(
      run.output.contains("user cancel (LAError -2): the biometric prompt was cancelled"),
      run.output)
    XCTAssertTrue(run.echo_after)
    XCTAssertTrue(run.icanon_after)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 0)
  }

  func testCtrlDCancelsAndStrayKeysAreIgnoredAtTheSensorPrompt() throws {
    let box = Sandbox()
    box.initBiometric()
    let run = try drive(
      box, ["unlock"],
      script: [
        "expect PIN: ", "send \(Sandbox.pin)\\n", "expect Ctrl-C: cancel", "send xyz", "send \\x04",
      ])
    XCTAssertEqual(run.status, 13, run.output)
    XCTAssertFalse(run.output.contains("attempt 2 of 3"), run.output)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 0)
    XCTAssertTrue(run.echo_after)
  }

  func testANonMatchingFingerThenAMatch() throws {
    let box = Sandbox()
    box.initBiometric()
    let run = try drive(
      box, ["unlock", "--raw"],
      script: [
        "expect PIN: ", "send \(Sandbox.pin)\\n", "expect attempt 1 of 3", "send n",
        "expect attempt 2 of 3", "send \\r",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 0)
  }

  /// Review of 0.11.0, item 16: between failed attempts of one evaluation the prompt said
  /// nothing of the failure, where LocalAuthentication's prompt says "Try Again".
  func testAFailedAttemptIsSaidBeforeTheNextOne() throws {
    let box = Sandbox()
    box.initBiometric()
    // One attempt answered from the queue, then a poor scan and a non-matching finger typed.
    box.biosim(["next", "no-match"])
    let run = try drive(
      box, ["unlock", "--raw"],
      script: [
        "expect PIN: ", "send \(Sandbox.pin)\\n", "expect attempt 2 of 3", "send r",
        "expect Poor scan", "send n", "expect attempt 3 of 3", "send \\r",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    let sensor = "[simulated Touch ID sensor] "
    let keys =
      "  Enter: matching finger   n: non-matching finger   r: poor scan   f: fallback button (no"
      + " PIN-only path)   Ctrl-C: cancel \r\n"
    XCTAssertTrue(
      run.output.contains(
        sensor + "Not recognised. Try again.\r\n" + sensor
          + "unlock the vault (attempt 2 of 3)\r\n" + keys + sensor + "Poor scan. Try again.\r\n"
          + sensor + "unlock the vault (attempt 2 of 3)\r\n" + keys + sensor
          + "Not recognised. Try again.\r\n" + sensor + "unlock the vault (attempt 3 of 3)\r\n"
          + keys), run.output)
    XCTAssertEqual(run.output.components(separatedBy: "Try again.").count, 4, run.output)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 0)
  }

  func testAddOnATerminalAsksTwiceWithEchoOff() throws {
    let box = Sandbox()
    box.initPINOnly()
    let run = try drive(
      box, ["add", "web/mail"],
      script: [
        "expect PIN: ", "send \(Sandbox.pin)\\n", "expect Secret for 'web/mail': ", "echo",
        "send s3cr3t-value\\n", "expect Repeat it: ", "send s3cr3t-value\\n",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertEqual(run.echoes, [false])
    XCTAssertFalse(run.output.contains("s3cr3t-value"))
    XCTAssertEqual(box.vault(["get", "web/mail"], pin: [Sandbox.pin]).stdoutText, "s3cr3t-value")
  }
}
