import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// Review of 0.11.0, item 2: the agent's socket impersonated.
///
/// Nothing secret, nor able to carry a
/// secret (the master key, the standard descriptors, the terminal, the `--pin-fd` descriptor),
/// goes to a listener the kernel does not identify as vault's agent: a listener written in
/// Python, a relay that renamed the real socket and forwards to it, and vault's own executable
/// run with `LD_PRELOAD` where vault is installed set-group-id.
final class AgentImpostorCLITests: XCTestCase {
  var box: Sandbox!
  var planted: [Process] = []

  override func setUpWithError() throws {
    try TestTier.requireSystem("the agent and its impostors")
    box = Sandbox()
    box.initPINOnly()
    XCTAssertEqual(box.vaultPIN(["add", "mail/work"], stdin: Array("s3cret".utf8)).status, 0)
  }

  override func tearDown() {
    for process in planted {
      process.terminate()
      process.waitUntilExit()
    }
    planted = []
    box = nil
  }

  var folder: String { box.folder.runtime + "/vault" }
  var socketPath: String { folder + "/agent.sock" }
  var log: String { box.home + "/planted.log" }

  /// What the planted process logged: one line a connection, `bytes=N fds=M` when it closed.
  func received() -> [String] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
      .map(String.init)
  }

  /// A Python program that records every byte and descriptor a connection brings.
  ///
  /// As a relay it passes them on to `forward` when given. It takes the agent's lock unless it relays.
  static let listener = #"""
    import fcntl, os, socket, sys, threading
    path, log, forward = sys.argv[1], sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else "")
    if not forward:
        lock = open(os.path.join(os.path.dirname(path), "agent.lock"), "a")
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.path.exists(path): os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path); os.chmod(path, 0o600); server.listen(16)
    open(log, "a").write("listening\n")
    def pump(source, sink, counts):
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(source, 65536, 16)
            except OSError:
                break
            if not data: break
            counts[0] += len(data); counts[1] += len(fds)
            if sink is not None:
                socket.send_fds(sink, [data], fds) if fds else sink.sendall(data)
            for fd in fds: os.close(fd)
    def serve(conn):
        counts = [0, 0]
        upstream = None
        if forward:
            try:
                upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                upstream.connect(forward)
                threading.Thread(target=pump, args=(upstream, conn, [0, 0]), daemon=True).start()
            except OSError:
                upstream = None
        pump(conn, upstream, counts)
        open(log, "a").write("bytes=%d fds=%d\n" % (counts[0], counts[1]))
        conn.close()
    while True:
        conn, _ = server.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()
    """#

  /// Starts the listener (a relay to `forward` when given) and waits for it to listen.
  func plant(forward: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
    let script = box.home + "/listener.py"
    try Self.listener.write(toFile: script, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script, socketPath, log] + (forward.map { [$0] } ?? [])
    process.environment = ["PATH": "/usr/bin:/bin"]
    try process.run()
    planted.append(process)
    for _ in 0..<300 where !received().contains("listening") { usleep(10_000) }
    XCTAssertEqual(received(), ["listening"], file: file, line: line)
  }

  /// The warning a forwarded command prints before it runs in its own process.
  func warning(_ pid: pid_t) -> String {
    "vault: warning: the agent socket \(socketPath) is served by a process that is not vault's"
      + " agent (pid \(pid): its program is /usr/bin/python3.11); nothing was sent to it; running"
      + " here"
  }

  func testAListenerInPythonGetsNoKeyNoDescriptorAndNoPIN() throws {
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try plant()
    let pid = try XCTUnwrap(AgentListener.pid(socketPath))
    let unlock = box.vaultPIN(["unlock"])
    XCTAssertEqual(unlock.status, 19, unlock.stderrText)
    XCTAssertEqual(
      unlock.errorLines,
      [
        "vault: error: the agent socket \(socketPath) is served by a process that is not vault's"
          + " agent (pid \(pid): its program is /usr/bin/python3.11); nothing was sent to it",
        "vault: hint: end that process (kill \(pid)) or remove the socket, then run 'vault"
          + " unlock'; vault(1) SECURITY says what vault checks",
      ])
    // A script's read with the PIN runs in its own process; without one, it cannot ask.
    let scripted = box.vaultPIN(["get", "mail/work"])
    XCTAssertEqual(scripted.status, 0, scripted.stderrText)
    XCTAssertEqual(scripted.stdoutText, "s3cret")
    XCTAssertEqual(scripted.errorLines, [warning(pid)])
    let bare = box.vault(["get", "mail/work"])
    XCTAssertEqual(bare.status, 10, bare.stderrText)
    XCTAssertEqual(bare.errorLines.first, warning(pid))
    usleep(200_000)
    let connections = received().dropFirst()
    XCTAssertFalse(connections.isEmpty, "the listener was reached")
    XCTAssertEqual(Set(connections), ["bytes=0 fds=0"], "it received nothing")
  }

  func testARelayBeforeTheRealAgentGetsNothing() throws {
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 0)
    let real = socketPath + ".real"
    XCTAssertEqual(rename(socketPath, real), 0)
    try plant(forward: real)
    let pid = try XCTUnwrap(AgentListener.pid(socketPath))
    let scripted = box.vaultPIN(["get", "mail/work"])
    XCTAssertEqual(scripted.status, 0, scripted.stderrText)
    XCTAssertEqual(scripted.stdoutText, "s3cret")
    XCTAssertEqual(scripted.errorLines, [warning(pid)])
    let again = box.vaultPIN(["unlock", "--force"])
    XCTAssertEqual(again.status, 19, again.stderrText)
    usleep(200_000)
    let connections = received().dropFirst()
    XCTAssertFalse(connections.isEmpty, "the relay was reached")
    XCTAssertEqual(Set(connections), ["bytes=0 fds=0"], "it passed nothing on")
  }

  /// Issue "The agent as the one key holder": a session's token goes to vault's agent alone.
  ///
  /// It is a bearer credential, sent only to a listener identified as vault's agent. A relay
  /// put before the agent that holds the grant, then a listener that took the agent's place,
  /// get no byte of it.
  func testASessionTokenNeverReachesARelayOrAListener() throws {
    let token = box.vaultPIN(["unlock", "--raw"]).stdoutText.trimmingCharacters(in: .newlines)
    XCTAssertTrue(box.isSessionToken(token), token)
    let session = ["VAULT_SESSION": token]
    XCTAssertEqual(box.vault(["get", "mail/work"], env: session).stdoutText, "s3cret")
    let real = socketPath + ".real"
    XCTAssertEqual(rename(socketPath, real), 0)
    try plant(forward: real)
    let relay = try XCTUnwrap(AgentListener.pid(socketPath))
    let relayed = box.vault(["get", "mail/work"], env: session)
    XCTAssertEqual(relayed.status, 10, relayed.stderrText)
    XCTAssertEqual(relayed.stdout, [])
    XCTAssertEqual(relayed.errorLines.first, warning(relay))
    usleep(200_000)
    XCTAssertEqual(Set(received().dropFirst()), ["bytes=0 fds=0"], "the relay got nothing")
    // The real agent ended; a listener takes its lock and its place.
    for process in planted { process.terminate() }
    if let agent = AgentListener.pid(real) { kill(agent, SIGTERM) }
    for _ in 0..<200 where access(real, F_OK) == 0 { usleep(10_000) }
    try? FileManager.default.removeItem(atPath: log)
    try plant()
    let listener = try XCTUnwrap(AgentListener.pid(socketPath))
    let taken = box.vault(["get", "mail/work"], env: session)
    XCTAssertEqual(taken.status, 10, taken.stderrText)
    XCTAssertEqual(taken.errorLines.first, warning(listener))
    usleep(200_000)
    XCTAssertEqual(Set(received().dropFirst()), ["bytes=0 fds=0"], "the listener got nothing")
  }

  /// A listener in the agent's place when a command without a terminal would have the agent
  /// ask for the PIN through a pinentry: nothing goes to it and no pinentry runs.
  func testAListenerGetsNoRequestToAskThroughAPinentry() throws {
    let pinentry = box.home + "/pinentry-script"
    let ran = box.home + "/pinentry-ran"
    try Data("#!/bin/sh\ntouch '\(ran)'\necho OK\n".utf8).write(
      to: URL(fileURLWithPath: pinentry))
    chmod(pinentry, 0o755)
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", pinentry]).status, 0)
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try plant()
    let pid = try XCTUnwrap(AgentListener.pid(socketPath))
    let read = Subprocess.run(
      "/usr/bin/setsid", ["-w", Sandbox.binDirectory + "/vault", "get", "mail/work"],
      environment: box.environment, directory: box.home)
    XCTAssertEqual(read.status, 10, read.stderrText)
    XCTAssertEqual(read.stdout, [])
    XCTAssertEqual(read.errorLines.first, warning(pid))
    XCTAssertFalse(FileManager.default.fileExists(atPath: ran), "no pinentry ran")
    usleep(200_000)
    XCTAssertEqual(Set(received().dropFirst()), ["bytes=0 fds=0"], "it received nothing")
  }

  /// A listener whose process became vault by `execve` after it called `listen`, while a child
  /// it forked reads the connections: the kernel names the process that listened (now vault's
  /// executable), so only who speaks on the connection tells (review of 0.12.0, attack by a
  /// fresh reviewer: `vault unlock` sent it the master key).
  static let handOff = #"""
    import fcntl, os, socket, sys
    path, log, vault = sys.argv[1], sys.argv[2], sys.argv[3]
    lock = open(os.path.join(os.path.dirname(path), "agent.lock"), "a")
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    if os.path.exists(path): os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path); os.chmod(path, 0o600); server.listen(16)
    r, w = os.pipe()
    if os.fork() == 0:
        open(log, "a").write("listening %d\n" % os.getpid())
        while True:
            conn, _ = server.accept()
            try:
                conn.sendall(bytes([0, 0, 0, 1, 0x4A]))
            except OSError:
                pass
            counts = [0, 0]
            conn.settimeout(2)
            while True:
                try:
                    data, fds, _, _ = socket.recv_fds(conn, 65536, 16)
                except OSError:
                    break
                if not data: break
                counts[0] += len(data); counts[1] += len(fds)
                for fd in fds: os.close(fd)
            open(log, "a").write("bytes=%d fds=%d\n" % (counts[0], counts[1]))
            conn.close()
    else:
        os.dup2(r, 0)
        os.execv(vault, [vault, "journal"])
    """#

  func testAListenerThatBecameVaultWhileAChildReadsGetsNothing() throws {
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let script = box.home + "/handoff.py"
    try Self.handOff.write(toFile: script, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script, socketPath, log, Sandbox.binDirectory + "/vault"]
    process.environment = box.environment
    try process.run()
    planted.append(process)
    for _ in 0..<300 where received().isEmpty { usleep(10_000) }
    let reader = try XCTUnwrap(received().first?.split(separator: " ").last.map(String.init))
    let listener = try XCTUnwrap(AgentListener.pid(socketPath))
    for _ in 0..<300 where AgentListener.program(listener) != Sandbox.binDirectory + "/vault" {
      usleep(10_000)
    }
    let unlock = box.vaultPIN(["unlock"])
    XCTAssertEqual(unlock.status, 19, unlock.stderrText)
    XCTAssertEqual(
      unlock.errorLines.first,
      "vault: error: the agent socket \(socketPath) is served by a process that is not vault's"
        + " agent (pid \(listener): another process (pid \(reader)) speaks for it); nothing was"
        + " sent to it")
    let scripted = box.vaultPIN(["get", "mail/work"])
    XCTAssertEqual(scripted.status, 0, scripted.stderrText)
    XCTAssertEqual(scripted.stdoutText, "s3cret")
    kill(listener, SIGKILL)
    kill(pid_t(reader) ?? 0, SIGKILL)
    usleep(200_000)
    let connections = received().dropFirst()
    XCTAssertFalse(connections.isEmpty, "the child was reached")
    XCTAssertEqual(Set(connections), ["bytes=0 fds=0"], "it received nothing")
  }

  /// A library that leaves a mark when a process loads it.
  func preloadedLibrary() throws -> (library: String, mark: String) {
    let source = box.home + "/mark.c"
    let library = box.home + "/libmark.so"
    let mark = box.home + "/marks"
    try """
    #include <stdio.h>
    #include <unistd.h>
    __attribute__((constructor)) static void mark(void) {
      FILE *f = fopen("\(mark)", "a");
      if (f) { fprintf(f, "%d\\n", (int)getpid()); fclose(f); }
    }

    """.write(toFile: source, atomically: true, encoding: .utf8)
    let built = Subprocess.run(
      "/usr/bin/cc", ["-shared", "-fPIC", "-o", library, source],
      environment: ["PATH": "/usr/bin:/bin"])
    XCTAssertEqual(built.status, 0, built.stderrText)
    return (library, mark)
  }

  /// Without the set-group-id install, vault's own executable run with `LD_PRELOAD` is vault's
  /// agent to the kernel: the preloaded code runs in the agent that holds the key (vault(1)
  /// SECURITY says so).
  func testWithoutTheSetGroupIDInstallAPreloadedAgentRunsItsLibrary() throws {
    let (library, mark) = try preloadedLibrary()
    // An agent `vault unlock` starts gets only the variables it needs (not LD_PRELOAD)…
    let unlock = box.vaultPIN(["unlock"], env: ["LD_PRELOAD": library])
    XCTAssertEqual(unlock.status, 0, unlock.stderrText)
    let started = try XCTUnwrap(AgentListener.pid(socketPath))
    var marks = (try? String(contentsOfFile: mark, encoding: .utf8)) ?? ""
    XCTAssertFalse(marks.split(separator: "\n").contains("\(started)"), marks)
    box.folder.stopAgent()
    // …but vault's executable started as the agent with it by whoever runs as the user is
    // vault's agent to the kernel, and is handed the key.
    let agent = Process()
    agent.executableURL = URL(fileURLWithPath: Sandbox.binDirectory + "/vault")
    agent.arguments = ["__agent"]
    agent.environment = box.environment.merging(["LD_PRELOAD": library]) { $1 }
    try agent.run()
    planted.append(agent)
    for _ in 0..<300 where AgentListener.pid(socketPath) == nil { usleep(10_000) }
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 0)
    marks = (try? String(contentsOfFile: mark, encoding: .utf8)) ?? ""
    XCTAssertTrue(marks.split(separator: "\n").contains("\(agent.processIdentifier)"), marks)
    XCTAssertEqual(box.vault(["status", "--check"]).status, 0, "the preloaded agent holds it")
  }

  /// Installed set-group-id (a copy whose group is `daemon`, mode 2755, as root): the loader
  /// ignores `LD_PRELOAD` for it, so the agent never runs the library, and a listener without
  /// vault's group is refused by its group.
  func testWithTheSetGroupIDInstallAPreloadedLibraryNeverRunsAndGroupsIdentify() throws {
    try XCTSkipUnless(getuid() == 0, "installing a set-group-id copy needs root")
    let (library, mark) = try preloadedLibrary()
    let bin = box.home + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let copy = bin + "/vault"
    try FileManager.default.copyItem(atPath: Sandbox.binDirectory + "/vault", toPath: copy)
    XCTAssertEqual(chown(copy, 0, 1), 0)
    XCTAssertEqual(chmod(copy, 0o2755), 0)
    let installed = ["PIN": Sandbox.pin]
    let unlock = box.shell(
      #"LD_PRELOAD=\#(library) \#(copy) unlock --pin-fd 3 3<<EOF"# + "\n$PIN\nEOF", env: installed)
    XCTAssertEqual(unlock.status, 0, unlock.stderrText)
    XCTAssertFalse(FileManager.default.fileExists(atPath: mark), "the library never ran")
    let read = box.shell(copy + " get mail/work", env: installed)
    XCTAssertEqual(read.stdoutText, "s3cret", read.stderrText)
    XCTAssertEqual(read.stderrText, "")
    // The real agent gone, a Python listener takes its place: refused by its group.
    let agent = try XCTUnwrap(AgentListener.pid(socketPath))
    kill(agent, SIGTERM)
    for _ in 0..<200 where kill(agent, 0) == 0 { usleep(10_000) }
    try plant()
    let pid = try XCTUnwrap(AgentListener.pid(socketPath))
    let refused = box.shell(#"\#(copy) unlock --pin-fd 3 3<<EOF"# + "\n$PIN\nEOF", env: installed)
    XCTAssertEqual(refused.status, 19, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines.first,
      "vault: error: the agent socket \(socketPath) is served by a process that is not vault's"
        + " agent (pid \(pid): it runs with group 0, not vault's group 1); nothing was sent to it")
    XCTAssertEqual(Set(received().dropFirst()), ["bytes=0 fds=0"])
  }

  /// As a user without privileges, the kernel hides the executable of a non-dumpable process:
  /// the real agent (non-dumpable) still serves, and a Python listener (dumpable, its program
  /// readable) is still refused.
  func testWithoutPrivilegesTheAgentServesAndAListenerIsRefused() throws {
    try XCTSkipUnless(getuid() == 0, "running as another user needs root")
    let folder = box.home + "/nobody"
    let script = box.home + "/listener.py"
    try Self.listener.write(toFile: script, atomically: true, encoding: .utf8)
    for made in [folder, folder + "/home", folder + "/run"] {
      try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
      XCTAssertEqual(chown(made, 65534, 65534), 0)
      XCTAssertEqual(chmod(made, made == folder ? 0o755 : 0o700), 0)
    }
    XCTAssertEqual(chmod(box.home, 0o755), 0)
    let vault = Sandbox.binDirectory + "/vault"
    let run =
      "setpriv --reuid=65534 --regid=65534 --clear-groups env -i HOME=\(folder)/home"
      + " XDG_DATA_HOME=\(folder)/home/data XDG_STATE_HOME=\(folder)/home/state"
      + " XDG_RUNTIME_DIR=\(folder)/run PATH=/usr/bin:/bin VAULT_TEST_KDF=1"
    let served = box.shell(
      """
      \(run) sh -c '
        echo 246800 | \(vault) init --kdf test --no-biometry --pin-fd 0 2>/dev/null &&
        echo s3 | \(vault) add x --pin-fd 3 3<<EOF &&
      246800
      EOF
        \(vault) unlock --pin-fd 3 2>/dev/null 3<<EOF &&
      246800
      EOF
        \(vault) get x && \(vault) lock'
      """)
    XCTAssertEqual(served.status, 0, served.stderrText)
    XCTAssertEqual(served.stdoutText, "s3\n", "read through the agent: no PIN, no terminal")
    let listened = box.shell(
      """
      \(run) sh -c '
        mkdir -p -m 700 \(folder)/run/vault
        python3 \(script) \(folder)/run/vault/agent.sock \(folder)/planted.log & listener=$!
        sleep 0.5
        \(vault) get x; echo "status $?"
        kill $listener'
      """)
    XCTAssertTrue(listened.stdoutText.hasSuffix("status 10\n"), listened.stdoutText)
    XCTAssertTrue(
      listened.stderrText.hasPrefix(
        "vault: warning: the agent socket \(folder)/run/vault/agent.sock is served by a process"
          + " that is not vault's agent (pid "), listened.stderrText)
    XCTAssertTrue(listened.stderrText.contains(": its program is /usr/bin/python3.11); nothing"))
  }

  /// The `--pin-fd` descriptor never crosses the socket: a command the agent runs that needs the
  /// PIN (a guarded entry of a PIN-only vault) is handed back and runs in the caller's process.
  func testACommandThatNeedsThePINIsHandedBackNotGivenTheDescriptor() {
    XCTAssertEqual(
      box.vaultPIN(["add", "--guard", "g"], stdin: Array("guarded".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 0)
    let handedBack = box.vaultPIN(["get", "g"])
    XCTAssertEqual(handedBack.status, 0, handedBack.stderrText)
    XCTAssertEqual(handedBack.stdoutText, "guarded")
    XCTAssertEqual(handedBack.stderr, [])
    let noPIN = box.vault(["get", "g"], env: ["VAULT_TEST_BOOTCLOCK": "2000"])
    XCTAssertEqual(noPIN.status, 10, noPIN.stderrText)
  }
}
