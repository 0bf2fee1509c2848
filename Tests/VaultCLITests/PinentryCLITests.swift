import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat

/// The PIN asked through a pinentry when there is no terminal (issue "The agent as the one key
/// holder").
///
/// The agent runs the program on the client's display, over Assuan (libassuan), then holds the
/// vault. A scripted pinentry answers as told (right and wrong PINs, Cancel, its
/// timeout, dying, garbage); Debian's pinentry-tty runs for real under a pseudo-terminal.
final class PinentryCLITests: XCTestCase {
  var box: Sandbox!
  var server: Process?

  override func setUpWithError() throws {
    try TestTier.requireSystem("the agent and pinentry programs")
    box = Sandbox()
    try FileManager.default.createDirectory(
      atPath: box.home + "/bin", withIntermediateDirectories: true)
  }

  override func tearDown() {
    box = nil
    server?.terminate()
    server?.waitUntilExit()
  }

  var program: String { box.home + "/bin/pinentry-script" }
  var log: String { box.home + "/pinentry.log" }

  /// Writes the scripted pinentry and names it in the settings.
  ///
  /// It logs the descriptors it was given (but its log), its `DISPLAY`, whether it reached that X
  /// server, and every line it is sent, and answers each `GETPIN` with the next of `answers`: a PIN (sent as
  /// a D line), an `ERR` line as given, `DIE` (it exits), `HANG` (it never answers) or `GARBAGE` (a line outside the
  /// protocol). Every other command is `OK`.
  func script(_ answers: [String], refusing refused: [String] = []) throws {
    let text = """
      #!/usr/bin/python3
      import fcntl, os, signal, socket, sys, time
      answers = [\(answers.map { "\"\($0)\"" }.joined(separator: ", "))]
      refused = [\(refused.map { "\"\($0)\"" }.joined(separator: ", "))]
      log = open(\"\(log)\", "a")
      def target(fd):
          try: return os.readlink("/proc/self/fd/" + fd)
          except OSError: return None
      kept = [(fd, target(fd)) for fd in sorted(os.listdir("/proc/self/fd"))]
      kept = [fd + "=" + t.split(":")[0] for fd, t in kept if t and t != log.name]
      log.write("fds %s\\n" % " ".join(kept))
      log.write("env %s\\n" % " ".join(sorted(os.environ)))
      display = os.environ.get("DISPLAY", "")
      log.write("env DISPLAY=%s\\n" % (display or "-"))
      if display:
          try:
              s = socket.socket(socket.AF_UNIX)
              s.connect("/tmp/.X11-unix/X" + display.lstrip(":").split(".")[0])
              log.write("x11 connected\\n")
          except OSError:
              log.write("x11 unreachable\\n")
      log.flush()
      def out(s):
          sys.stdout.write(s + "\\n"); sys.stdout.flush()
      def ended(number, frame):
          # Ended while it shows a message: what was sent before is still in the pipe; log it.
          fcntl.fcntl(0, fcntl.F_SETFL, os.O_NONBLOCK)
          try:
              rest = os.read(0, 65536).decode()
          except OSError:
              rest = ""
          for line in rest.splitlines(): log.write(line + "\\n")
          log.flush()
          os._exit(0)
      signal.signal(signal.SIGTERM, ended)
      if answers and answers[0] == "HANG_GREETING": time.sleep(3600)
      out("OK Pleased to meet you")
      def lines():
          # Unbuffered, a byte at a time: nothing read is left unlogged when a signal ends it.
          line = b""
          while True:
              byte = os.read(0, 1)
              if not byte: return
              if byte == b"\\n":
                  yield line.decode()
                  line = b""
              else:
                  line += byte
      for line in lines():
          log.write(line + "\\n"); log.flush()
          cmd = line.split(" ", 1)[0]
          if cmd == "SETDESC" and answers and answers[0] == "HANG_SET": time.sleep(3600)
          if cmd in refused:
              out("ERR 536871187 Unknown IPC command <User defined source 1>")
          elif cmd == "GETPIN":
              answer = answers.pop(0)
              if answer == "DIE": sys.exit(3)
              elif answer == "HANG": time.sleep(3600)
              elif answer == "GARBAGE": out("HELLO THERE")
              elif answer.startswith("ERR"): out(answer)
              else: out("D " + answer); out("OK")
          elif cmd == "BYE":
              out("OK"); break
          else:
              out("OK")
      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: program))
    chmod(program, 0o755)
    try? FileManager.default.removeItem(atPath: log)
    let set = box.vault(["config", "--global", "pinentry", program])
    XCTAssertEqual(set.status, 0, set.stderrText)
  }

  /// What the scripted pinentry logged.
  func logged() -> [String] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
      .map(String.init)
  }

  /// `vault ARGUMENTS` as a launcher starts it: the built binary in a session of its own (no
  /// controlling terminal), standard input from /dev/null.
  func launched(_ arguments: [String], env: [String: String] = [:]) -> Subprocess.Result {
    Subprocess.run(
      "/usr/bin/setsid", ["-w", Sandbox.binDirectory + "/vault"] + arguments,
      environment: box.environment.merging(env) { $1 }, directory: box.home)
  }

  func addSecret() {
    let added = box.vaultPIN(["add", "x"], stdin: Array("s3cret".utf8))
    XCTAssertEqual(added.status, 0, added.stderrText)
  }

  func testThePINAskedThroughAPinentryUnlocksTheAgent() throws {
    box.initPINOnly()
    addSecret()
    try script(["111111", Sandbox.pin])
    let read = launched(["get", "x"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "s3cret")
    XCTAssertEqual(
      read.errorLines,
      [
        "Unlocked \(box.vaultPath) through \(program) for every shell of yours: it locks after"
          + " 15 min without use (at most 8 h), or with 'vault lock'."
      ])
    XCTAssertEqual(
      logged(),
      [
        "fds 0=pipe 1=pipe 2=/dev/null", "env DISPLAY HOME LANG PATH _assuan_pipe_connect_pid",
        "env DISPLAY=:93",
        "x11 unreachable",
        "OPTION lc-ctype=C.UTF-8", "OPTION display=:93",
        "SETTIMEOUT 60", "SETTITLE vault",
        "SETDESC Unlock the vault \(box.vaultPath) for every shell of yours: type its PIN.",
        "SETPROMPT PIN:", "GETPIN",
        "SETERROR wrong PIN (4 attempts left before a delay); try again", "SETPROMPT PIN:",
        "GETPIN",
      ])
    // The agent holds it now: the next command asks nothing.
    try script([])
    let again = launched(["get", "x"])
    XCTAssertEqual(again.stdoutText, "s3cret", again.stderrText)
    XCTAssertEqual(logged(), [])
  }

  /// Attack review: installed set-group-id, the agent keeps vault's group, which identifies it to
  /// its clients; the pinentry it starts (through libassuan's fork, not vault's spawn) must not
  /// keep it, or a pinentry of the user's choosing could stand in for the agent.
  func testOnTheSetGroupIDInstallThePinentryRunsWithoutVaultsGroup() throws {
    try XCTSkipUnless(getuid() == 0, "installing a set-group-id copy needs root")
    box.initPINOnly()
    addSecret()
    let copy = box.home + "/bin/vault"
    try FileManager.default.copyItem(atPath: Sandbox.binDirectory + "/vault", toPath: copy)
    XCTAssertEqual(chown(copy, 0, 1), 0)
    XCTAssertEqual(chmod(copy, 0o2755), 0)
    let groups = box.home + "/groups"
    let pinentry = box.home + "/bin/pinentry-groups"
    let text = """
      #!/usr/bin/python3
      import os, sys
      open("\(groups)", "w").write("%d %d %d\\n" % os.getresgid())
      def out(s): sys.stdout.write(s + "\\n"); sys.stdout.flush()
      out("OK")
      for line in sys.stdin:
          cmd = line.split(" ", 1)[0].strip()
          if cmd == "GETPIN": out("D \(Sandbox.pin)"); out("OK")
          elif cmd == "BYE": out("OK"); break
          else: out("OK")
      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: pinentry))
    chmod(pinentry, 0o755)
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", pinentry]).status, 0)
    let read = Subprocess.run(
      "/usr/bin/setsid", ["-w", copy, "get", "x"], environment: box.environment,
      directory: box.home)
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "s3cret")
    XCTAssertEqual(
      try String(contentsOfFile: groups, encoding: .utf8), "\(getgid()) \(getgid()) \(getgid())\n")
    XCTAssertEqual(box.vault(["lock"]).status, 0)
  }

  /// `vault unlock` from a launcher (the rofi mode's binding runs it first): the PIN through
  /// the pinentry; held already, nothing is asked.
  func testUnlockWithoutATerminalAsksThroughThePinentry() throws {
    box.initPINOnly()
    addSecret()
    try script([Sandbox.pin])
    let unlocked = launched(["unlock"])
    XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    XCTAssertEqual(
      unlocked.errorLines,
      [
        "Unlocked \(box.vaultPath) through \(program) for every shell of yours: it locks after"
          + " 15 min without use (at most 8 h), or with 'vault lock'."
      ])
    XCTAssertEqual(launched(["status", "--check"]).status, 0)
    try script([])
    let again = launched(["unlock"])
    XCTAssertEqual(again.status, 0, again.stderrText)
    XCTAssertEqual(again.errorLines.first?.hasPrefix("The agent already holds"), true)
    XCTAssertEqual(logged(), [])
  }

  /// New-user review: a pinentry named in the settings that asks on a terminal only, with none,
  /// is not started (it ended as if cancelled); the hint says why.
  func testANamedTerminalPinentryIsNotStartedWithoutATerminal() throws {
    box.initPINOnly()
    addSecret()
    let tty = "/usr/bin/pinentry-tty"
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tty), "pinentry-tty")
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", tty]).status, 0)
    let read = launched(["get", "x"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(read.status, 10, read.stderrText)
    XCTAssertEqual(
      read.errorLines,
      [
        "vault: error: locked: no valid session and no terminal to ask on",
        "vault: hint: pinentry is set to \(tty), which asks on a terminal only: name one for your"
          + " desktop with 'vault config --global pinentry PATH' (or 'auto'), or run 'vault"
          + " unlock' on a terminal",
      ])
  }

  /// `vault pick` from a launcher's key binding: no terminal, so the agent asks through the
  /// pinentry, then serves the names and the value.
  func testPickFromALauncherAsksThroughThePinentry() throws {
    box.initPINOnly()
    addSecret()
    try script([Sandbox.pin])
    let menu = box.home + "/bin/menu"
    try Data("#!/bin/sh\ncat >/dev/null\necho x\n".utf8).write(to: URL(fileURLWithPath: menu))
    chmod(menu, 0o755)
    let picked = launched(["pick", "--menu", menu, "--print"])
    XCTAssertEqual(picked.status, 0, picked.stderrText)
    XCTAssertEqual(picked.stdoutText, "s3cret")
    XCTAssertEqual(
      picked.errorLines,
      [
        "Unlocked \(box.vaultPath) through \(program) for every shell of yours: it locks after"
          + " 15 min without use (at most 8 h), or with 'vault lock'."
      ])
    XCTAssertEqual(logged().filter { $0 == "GETPIN" }.count, 1)
  }

  func testTheMatchComesFromTheSensorWhileAMessageShowsTheReason() throws {
    box.initBiometric()
    box.biosim(["next", "match"])
    addSecret()
    try script([Sandbox.pin])
    box.biosim(["next", "match"])
    let read = launched(["get", "x"])
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "s3cret")
    XCTAssertEqual(
      Array(logged().suffix(3)),
      ["GETPIN", "SETDESC Touch the sensor: unlock the vault.", "MESSAGE"])
    XCTAssertEqual(box.sensor()["queue"] as? [String], [])
    // An answer left queued is said once, by the command, not again by the unlock before it
    // (new-user review).
    XCTAssertEqual(box.vault(["lock"]).status, 0)
    try script([Sandbox.pin])
    box.biosim(["next", "match"])
    box.biosim(["next", "match"])
    let again = launched(["get", "x"])
    XCTAssertEqual(again.status, 0, again.stderrText)
    XCTAssertEqual(
      again.errorLines.filter { $0.hasPrefix("vault: note: ") },
      [
        "vault: note: 1 sensor answer queued with 'biosim next' is still waiting (match): the next"
          + " prompt takes it within 120 s; 'biosim next --clear' drops it"
      ])
  }

  func testCancelAndTheTimeoutExit13AndLeaveItLocked() throws {
    box.initPINOnly()
    addSecret()
    for (answer, message) in [
      (
        "ERR 83886179 Operation cancelled <Pinentry>",
        "vault: error: cancelled: the PIN was not given (\(program))"
      ),
      (
        "ERR 83886142 Timeout <Pinentry>",
        "vault: error: cancelled: \(program) timed out after 60 s with no PIN typed"
      ),
    ] {
      try script([answer])
      let read = launched(["get", "x"])
      XCTAssertEqual(read.status, 13, read.stderrText)
      XCTAssertEqual(read.stdout, [])
      XCTAssertEqual(read.errorLines, [message])
      XCTAssertEqual(launched(["status", "--check"]).status, 10, "nothing is held")
    }
  }

  /// A pinentry that ignores its timeout and never answers is killed by vault's own watchdog
  /// (75 s; a debug build's test setting shortens it).
  func testAPinentryThatNeverAnswersIsKilled() throws {
    box.initPINOnly()
    addSecret()
    try script(["HANG"])
    let start = Date()
    let read = launched(["get", "x"], env: ["VAULT_TEST_PINENTRY_KILL": "1.5"])
    XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    XCTAssertEqual(read.status, 13, read.stderrText)
    XCTAssertEqual(read.stdout, [])
    XCTAssertEqual(
      read.errorLines,
      ["vault: error: cancelled: \(program) timed out after 60 s with no PIN typed"])
    XCTAssertEqual(launched(["status", "--check"]).status, 10, "nothing is held")
  }

  /// New-user review: one that never greets, or never answers a command before GETPIN, was
  /// waited for without end; vault ends it after 15 s (a debug build's test setting shortens
  /// it).
  func testAPinentryThatNeverGreetsOrAnswersIsEnded() throws {
    box.initPINOnly()
    addSecret()
    for hang in ["HANG_GREETING", "HANG_SET"] {
      try script([hang])
      let start = Date()
      let read = launched(["get", "x"], env: ["VAULT_TEST_PINENTRY_KILL": "1.5"])
      XCTAssertLessThan(Date().timeIntervalSince(start), 20, hang)
      XCTAssertEqual(read.status, 10, "\(hang): \(read.stderrText)")
      XCTAssertEqual(read.stdout, [])
      XCTAssertEqual(
        read.errorLines.first,
        "vault: error: \(program) did not answer within 15 s and was ended; no PIN was read", hang)
    }
  }

  /// Verification review: a wrapper script that runs the hung program without exec is ended
  /// with what it started (its process group), not waited for while the child holds the pipes.
  func testAHungWrapperIsEndedWithItsChild() throws {
    box.initPINOnly()
    addSecret()
    let wrapper = box.home + "/bin/pinentry-wrapper"
    try Data("#!/bin/sh\nsleep 31.25\n".utf8).write(to: URL(fileURLWithPath: wrapper))
    chmod(wrapper, 0o755)
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", wrapper]).status, 0)
    let start = Date()
    let read = launched(["get", "x"], env: ["VAULT_TEST_PINENTRY_KILL": "1.5"])
    XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    XCTAssertEqual(read.status, 10, read.stderrText)
    XCTAssertEqual(
      read.errorLines.first,
      "vault: error: \(wrapper) did not answer within 15 s and was ended; no PIN was read")
    let left = Subprocess.run("/usr/bin/pgrep", ["-f", "sleep 31.25"], environment: [:])
    XCTAssertEqual(left.stdoutText, "", "the wrapper's child is ended too")
  }

  func testAPinentryThatDiesOrAnswersGarbageExits10NamingIt() throws {
    box.initPINOnly()
    addSecret()
    for answer in ["DIE", "GARBAGE"] {
      try script([answer])
      let read = launched(["get", "x"])
      XCTAssertEqual(read.status, 10, "\(answer): \(read.stderrText)")
      XCTAssertEqual(read.stdout, [])
      XCTAssertTrue(
        read.errorLines.first?.hasPrefix(
          "vault: error: \(program) ended or answered outside the pinentry protocol (libassuan"
            + " error ") == true, read.stderrText)
      XCTAssertEqual(
        read.errorLines.last,
        "vault: hint: name a pinentry that works on your desktop with 'vault config --global"
          + " pinentry PATH', or run 'vault unlock --vault \(box.vaultPath)' on a terminal")
    }
  }

  /// New-user review: a pinentry that does not know a command answers ERR, which is passed
  /// over as gpg-agent does, not taken for a broken program.
  func testAnUnknownCommandIsPassedOver() throws {
    box.initPINOnly()
    addSecret()
    try script([Sandbox.pin], refusing: ["OPTION", "SETTIMEOUT", "SETTITLE", "SETERROR"])
    let read = launched(["get", "x"])
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "s3cret")
  }

  func testThreeWrongPINsEndItAsAtATerminal() throws {
    box.initPINOnly()
    addSecret()
    try script(["111111", "222222", "333333"])
    let read = launched(["get", "x"])
    XCTAssertEqual(read.status, 11, read.stderrText)
    XCTAssertEqual(logged().filter { $0 == "GETPIN" }.count, 3)
    XCTAssertEqual(
      read.errorLines, ["vault: error: wrong PIN (2 attempts left before a delay)"])
  }

  func testTheTTYSettingKeepsTheOldRule() throws {
    box.initPINOnly()
    addSecret()
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", "tty"]).status, 0)
    let read = launched(["get", "x"])
    XCTAssertEqual(read.status, 10, read.stderrText)
    XCTAssertEqual(
      read.errorLines,
      [
        "vault: error: locked: no valid session and no terminal to ask on",
        "vault: hint: unlock first with: vault unlock",
      ])
    // On a desktop, the hint says what the setting does (new-user review).
    let desktop = launched(["get", "x"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(desktop.status, 10, desktop.stderrText)
    XCTAssertEqual(
      desktop.errorLines,
      [
        "vault: error: locked: no valid session and no terminal to ask on",
        "vault: hint: pinentry is set to tty, so the PIN is asked only on a terminal: run 'vault"
          + " unlock' on one, or let a pinentry ask with 'vault config --global pinentry auto'",
      ])
  }

  /// A job of cron or a systemd timer has neither a terminal nor a display: no graphical
  /// pinentry is started for it (one would fail or fall back to a terminal it lacks).
  func testNoPinentryIsStartedWithoutADisplay() throws {
    box.initPINOnly()
    addSecret()
    XCTAssertNil(
      PinentryChoice.program(for: .auto, terminalName: nil, variables: ["DISPLAY": ""]))
    XCTAssertEqual(
      PinentryChoice.program(for: .auto, terminalName: "/dev/pts/9", variables: [:]).map {
        $0.hasPrefix("/usr/bin/pinentry")
      }, true, "a terminal's pinentry, where one is installed")
    let read = launched(["get", "x"], env: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
    XCTAssertEqual(read.status, 10, read.stderrText)
    XCTAssertEqual(
      read.errorLines,
      [
        "vault: error: locked: no valid session and no terminal to ask on",
        "vault: hint: unlock first with: vault unlock",
      ])
    // A program named in the settings is the user's choice, and is asked.
    try script([Sandbox.pin])
    XCTAssertEqual(launched(["get", "x"]).stdoutText, "s3cret")
  }

  /// An agent started where there is no display, asked by a client on an X display (Xvfb):
  /// the pinentry gets the client's DISPLAY, in its environment and as an option, and reaches
  /// that server.
  func testTheClientsDisplayReachesThePinentry() throws {
    box.initPINOnly()
    addSecret()
    // The agent starts from a shell without DISPLAY, holding another vault.
    let other = box.home + "/other.db"
    XCTAssertEqual(
      box.vault(["init", "--kdf", "test", "--no-biometry", "--vault", other], pin: ["999900"])
        .status, 0)
    XCTAssertEqual(box.vault(["unlock", "--vault", other], pin: ["999900"]).status, 0)
    let display = try startDisplay()
    try script([Sandbox.pin])
    let read = launched(["get", "x"], env: ["DISPLAY": display])
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "s3cret")
    XCTAssertEqual(
      Array(logged().prefix(6)),
      [
        "fds 0=pipe 1=pipe 2=/dev/null", "env DISPLAY HOME LANG PATH _assuan_pipe_connect_pid",
        "env DISPLAY=\(display)", "x11 connected",
        "OPTION lc-ctype=C.UTF-8", "OPTION display=\(display)",
      ])
  }

  /// Debian's pinentry-tty, for real: a client with no controlling terminal whose standard input
  /// is a pseudo-terminal; the pinentry prompts there (`OPTION ttyname`) and reads the PIN.
  func testPinentryTTYAsksOnTheClientsTerminal() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pinentry-tty") else {
      throw XCTSkip("pinentry-tty is not installed")
    }
    box.initPINOnly()
    addSecret()
    XCTAssertEqual(
      box.vault(["config", "--global", "pinentry", "/usr/bin/pinentry-tty"]).status, 0)
    let driver = """
      import os, pty, select, sys, time
      pid, fd = pty.fork()
      if pid == 0:
          # A grandchild in a session of its own: no controlling terminal, the pty on 0, 1, 2.
          inner = os.fork()
          if inner == 0:
              os.setsid()
              os.execv(sys.argv[1], sys.argv[1:])
          _, status = os.waitpid(inner, 0)
          os._exit(os.waitstatus_to_exitcode(status))
      seen, sent, deadline = b"", False, time.time() + 20
      while time.time() < deadline:
          ready, _, _ = select.select([fd], [], [], 0.2)
          if ready:
              try:
                  chunk = os.read(fd, 4096)
              except OSError:
                  break
              if not chunk: break
              seen += chunk
          if not sent and b"PIN:" in seen:
              os.write(fd, b"\(Sandbox.pin)\\n"); sent = True
      _, status = os.waitpid(pid, 0)
      sys.stdout.write(seen.decode(errors="replace").replace("\\r", ""))
      sys.exit(os.waitstatus_to_exitcode(status))
      """
    let run = Subprocess.run(
      "/usr/bin/python3", ["-c", driver, Sandbox.binDirectory + "/vault", "get", "x"],
      environment: box.environment, directory: box.home)
    XCTAssertEqual(run.status, 0, run.stdoutText + run.stderrText)
    let lines = run.stdoutText.split(separator: "\n").map(String.init)
    XCTAssertEqual(
      lines,
      [
        "Unlock the vault \(box.vaultPath) for every shell of yours: type its PIN.", "PIN: ",
        "Unlocked \(box.vaultPath) through /usr/bin/pinentry-tty for every shell of yours: it"
          + " locks after 15 min without use (at most 8 h), or with 'vault lock'.",
        "s3cret",
      ])
    XCTAssertFalse(run.stdoutText.contains(Sandbox.pin), "the PIN is not echoed")
  }

  /// Starts Xvfb on a free display and returns it (":N").
  func startDisplay() throws -> String {
    let (process, display) = try VirtualDisplay.start()
    server = process
    return display
  }
}
