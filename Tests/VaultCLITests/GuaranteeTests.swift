import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// The guarantees of `docs/guarantees.md`, proved on the built binary (the stress tier).
///
/// In a bounded form; `VAULT_GUARANTEE_SCALE=N` multiplies the rounds for a longer manual run.
/// Each test prints its figure.
final class GuaranteeTests: XCTestCase {
  override func setUpWithError() throws {
    try TestTier.requireStress("the guarantees")
  }

  static var scale: Int {
    ProcessInfo.processInfo.environment["VAULT_GUARANTEE_SCALE"].flatMap(Int.init) ?? 1
  }

  /// Starts the built `vault` with `arguments` and `stdin`, and kills it with SIGKILL after
  /// `delay` seconds unless it has ended; returns its exit status (128 + 9 when killed).
  func runKilled(
    _ box: Sandbox, _ arguments: [String], stdin: [UInt8], env: [String: String], delay: Double
  ) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Sandbox.binDirectory + "/vault")
    process.arguments = arguments
    process.environment = box.environment.merging(env) { $1 }
    // From a file, so the child reads at its own pace and a kill never blocks a writer.
    let inputPath = box.home + "/stdin"
    try Data(stdin).write(to: URL(fileURLWithPath: inputPath))
    let input = try XCTUnwrap(FileHandle(forReadingAtPath: inputPath))
    defer { try? input.close() }
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.currentDirectoryURL = URL(fileURLWithPath: box.home)
    try process.run()
    usleep(useconds_t(delay * 1e6))
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus
      : process.terminationStatus
  }

  /// Adds, replaces, renames and removes entries, each process killed at a random moment (some
  /// inside the transaction): afterwards `check` passes, and every change that was acknowledged
  /// (exit 0) is there exactly, every other one either fully there or fully absent.
  func testCrashSafety() throws {
    let box = Sandbox()
    let session = box.pinOnlySession()
    var expected: [String: String] = [:]  // name → content, for acknowledged state
    var uncertain: [String: [String?]] = [:]  // name → the states it may be in
    var kills = 0
    var generator = SystemRandomNumberGenerator()
    let wanted = 200 * Self.scale
    var round = 0
    while kills < wanted && round < 10 * wanted {
      defer { round += 1 }
      let name = "e\(round % 23)"
      let content =
        "content \(round) "
        + String(repeating: "x", count: Int.random(in: 1...200_000, using: &generator))
      let delay = Double.random(in: 0...0.035, using: &generator)
      let operation = round % 4
      let arguments: [String]
      switch operation {
      case 0: arguments = ["add", "--force", name]
      case 1: arguments = ["add", name]
      case 2: arguments = ["mv", "--force", name, "e\((round + 7) % 23)"]
      default: arguments = ["rm", name]
      }
      let before = expected
      let status = try runKilled(
        box, arguments, stdin: Array(content.utf8), env: session, delay: delay)
      if status == 137 { kills += 1 }
      // What each outcome means for the names it touches.
      var after = before
      switch operation {
      case 0: after[name] = content
      case 1: if before[name] == nil { after[name] = content }
      case 2:
        if let moved = before[name] {
          after[name] = nil
          after["e\((round + 7) % 23)"] = moved
        }
      default: after[name] = nil
      }
      if status == 0 {
        expected = after
      } else if status == 137 {
        // Killed: old or new state; learn which from the vault itself.
        for key in Set(before.keys).union(after.keys) {
          let read = box.vault(["get", key], env: session)
          let now: String? = read.status == 0 ? read.stdoutText : nil
          XCTAssertTrue(
            now == before[key] || now == after[key],
            "round \(round) \(arguments): '\(key)' is neither its old nor its new content")
          expected[key] = now
        }
        uncertain[name, default: []].append(expected[name])
      }
    }
    let check = box.vault(["check"], env: session)
    XCTAssertEqual(check.status, 0, check.stderrText)
    var lost = 0
    for (key, content) in expected {
      let read = box.vault(["get", key], env: session)
      if read.status != 0 || read.stdoutText != content { lost += 1 }
    }
    let listed = Set(
      box.vault(["list"], env: session).stdoutText.split(separator: "\n").map(String.init))
    XCTAssertEqual(listed, Set(expected.keys))
    XCTAssertEqual(lost, 0)
    XCTAssertGreaterThanOrEqual(kills, wanted, "too few processes were killed to prove anything")
    // PIN changes killed at random: the old PIN or the new one opens the vault, never neither.
    var pins = [Sandbox.pin, "135790"]
    var unopenable = check.status == 0 ? 0 : 1
    var pinKills = 0
    for _ in 0..<(20 * Self.scale) {
      let status = try runKilled(
        box, ["passwd", "--pin-fd", "0"], stdin: Array("\(pins[0])\n\(pins[1])\n".utf8), env: [:],
        delay: Double.random(in: 0...0.03, using: &generator))
      if status == 137 { pinKills += 1 }
      if box.vault(["list"], pin: [pins[0]]).status == 0 { continue }
      if box.vault(["list"], pin: [pins[1]]).status == 0 {
        pins.swapAt(0, 1)
      } else {
        unopenable += 1
        break
      }
    }
    XCTAssertEqual(unopenable, 0)
    print(
      "crash: \(kills + pinKills) kills (\(pinKills) of passwd), \(lost) lost,"
        + " \(unopenable) unopenable")
  }

  /// Eight writers sharing one session add entries while readers list and read: every entry is
  /// there, exact, and no "database is locked" reaches a user.
  func testConcurrency() throws {
    let box = Sandbox()
    let session = box.pinOnlySession()
    let writers = 8
    let perWriter = 200 * Self.scale
    let script = """
      w=$1
      i=0
      while [ $i -lt \(perWriter) ]; do
        printf 'v-%s-%s' "$w" "$i" | vault add "w$w/e$i" 2>>"$HOME/errors" || echo "add w$w/e$i $?" >>"$HOME/failures"
        i=$((i + 1))
      done
      """
    let readers = """
      i=0
      while [ $i -lt \(perWriter / 4) ]; do
        vault list >/dev/null 2>>"$HOME/errors" || echo "list $?" >>"$HOME/failures"
        i=$((i + 1))
      done
      """
    let start = Date()
    let all = (0..<writers).map { "sh -c '\(script)' writer \($0) &" }.joined(separator: "\n")
    let result = box.shell(
      all + "\n" + "sh -c '\(readers)' &\nsh -c '\(readers)' &\nwait", env: session)
    XCTAssertEqual(result.status, 0, result.stderrText)
    let seconds = Date().timeIntervalSince(start)
    let failures = (try? String(contentsOfFile: box.home + "/failures", encoding: .utf8)) ?? ""
    let errors = (try? String(contentsOfFile: box.home + "/errors", encoding: .utf8)) ?? ""
    XCTAssertEqual(failures, "")
    XCTAssertFalse(errors.contains("locked"), errors)
    let names = box.vault(["list"], env: session).stdoutText.split(separator: "\n")
    XCTAssertEqual(names.count, writers * perWriter)
    var wrong = 0
    for w in 0..<writers {
      for i in stride(from: 0, to: perWriter, by: max(1, perWriter / 10)) {
        if box.vault(["get", "w\(w)/e\(i)"], env: session).stdoutText != "v-\(w)-\(i)" {
          wrong += 1
        }
      }
    }
    XCTAssertEqual(wrong, 0)
    XCTAssertEqual(box.vault(["check"], env: session).status, 0)
    print(
      "concurrency: \(writers) writers × \(perWriter) adds with 2 readers in"
        + " \(String(format: "%.1f", seconds)) s: \(names.count) present, \(wrong) wrong,"
        + " 0 locked")
  }

  /// After a run of every command that handles plaintext, including an editor killed mid-edit
  /// and a vault killed while its editor ran, no file under the vault, state, session or
  /// temporary folders holds the marker: names, contents and journal text are never at rest in
  /// the clear.
  func testNoPlaintextAtRest() throws {
    let box = Sandbox()
    let session = box.pinOnlySession()
    let marker = "MARKER-" + UUID().uuidString
    let bin = box.home + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    func editor(_ name: String, _ body: String) throws -> String {
      let path = bin + "/" + name
      try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: path))
      chmod(path, 0o700)
      return path
    }
    let steps: [[String]] = [
      ["add", "\(marker)/name"], ["add", "plain"], ["mv", "plain", "moved-\(marker)"],
      ["generate", "gen-\(marker)"], ["backup", box.home + "/backup.db"],
    ]
    for step in steps {
      let result = box.vault(step, stdin: Array("content \(marker)\n".utf8), env: session)
      XCTAssertEqual(result.status, 0, "\(step): \(result.stderrText)")
    }
    XCTAssertEqual(box.vault(["journal"], stdin: Array("diary \(marker)\n".utf8)).status, 0)
    let appender = try editor("append.sh", "printf '%s\\n' '\(marker) edited' >> \"$1\"")
    XCTAssertEqual(
      box.vault(["edit", "\(marker)/name"], env: session.merging(["EDITOR": appender]) { $1 })
        .status, 0)
    // An editor that dies mid-edit, and a vault killed while its editor runs.
    let dying = try editor("dying.sh", "kill -9 $$")
    _ = box.vault(["edit", "\(marker)/name"], env: session.merging(["EDITOR": dying]) { $1 })
    let sleeper = try editor("sleep.sh", "echo $$ > \"$HOME/editor.pid\"; exec sleep 30")
    // With the PIN, the edit runs in the process killed (a session's would run in the agent's
    // worker, which cleans up when its client dies).
    let killed = box.shell(
      "printf '%s\\n' \"$PIN\" > \"$HOME/pin\"; EDITOR=\(sleeper) vault edit '\(marker)/name'"
        + " --pin-fd 3 3<\"$HOME/pin\" & pid=$!; sleep 1; kill -9 $pid; wait $pid;"
        + " kill -9 \"$(cat \"$HOME/editor.pid\")\"")
    XCTAssertEqual(killed.status, 0, killed.stderrText)
    // The scan sees what a vault killed by SIGKILL leaves in its RAM-backed folder...
    XCTAssertFalse(scan(marker, under: [box.home, "/dev/shm"], sparing: bin).found.isEmpty)
    // ...and the next vault command removes it.
    XCTAssertEqual(box.vault(["list"], env: session).status, 0)
    XCTAssertEqual(box.vault(["passwd"], pin: [Sandbox.pin, "864200"]).status, 0)
    let (scanned, found) = scan(marker, under: [box.home, "/dev/shm"], sparing: bin)
    XCTAssertEqual(found, [])
    print("at rest: \(scanned) files scanned after every command, \(found.count) hold plaintext")
  }

  /// Every regular file under `roots` (the test's own scripts in the folder `spared` aside, which
  /// may be under any root: homes live on /dev/shm) that holds `marker`, and how many files were
  /// read.
  func scan(_ marker: String, under roots: [String], sparing spared: String) -> (
    scanned: Int, found: [String]
  ) {
    var scanned = 0
    var found: [String] = []
    for root in roots {
      guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
      for case let relative as String in walker {
        let path = root + "/" + relative
        if path.hasPrefix(spared + "/") { continue }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
          let data = FileManager.default.contents(atPath: path)
        else { continue }
        scanned += 1
        if data.range(of: Data(marker.utf8)) != nil { found.append(path) }
      }
    }
    return (scanned, found)
  }

  /// Random command lines built from the real commands and options with odd values, and random
  /// standard input: no trap, no hang, and nothing on standard output when a command fails.
  func testCommandLineFuzz() throws {
    let box = Sandbox()
    let session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "a"], stdin: Array("v".utf8), env: session).status, 0)
    let program = VaultCommands.program
    // Commands that wait by design (the tour, the clipboard clearer, the editors, the unlock
    // agent) are left out, and `run`, which would start whatever program a random word names,
    // with random input.
    let paths = program.allPaths(includeHidden: true).filter {
      !["tour", "__clip-clear", "edit", "run", "__agent"].contains($0.first ?? "")
        && $0 != ["journal", "edit"]
    }
    let odd = [
      "", "-", "--", "\n", "é", String(repeating: "x", count: 5000), "-1", "0",
      "99999999999999999999", "../..", "a//b", "%s%n", "\u{1b}[31m", "a", "/tmp", "1h", "zsh",
      "today", "ffff", "match",
    ]
    // The grammar is the command table's: every command and option added later is fuzzed too.
    var generator = SeededGenerator(environment: ProcessInfo.processInfo.environment)
    print("fuzz: seed \(generator.seed) (VAULT_TEST_SEED=\(generator.seed) replays it)")
    var traps: [String] = []
    var noisy: [String] = []
    let runs = 300 * Self.scale
    for _ in 0..<runs {
      let path = paths.randomElement(using: &generator) ?? []
      var words = path
      let options = (program.command(at: path)?.options ?? []) + program.globalOptions
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        guard let option = options.randomElement(using: &generator) else { break }
        words.append("--" + option.long)
        if option.valueName != nil { words.append(odd.randomElement(using: &generator) ?? "") }
      }
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        words.append(odd.randomElement(using: &generator) ?? "")
      }
      let input = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      let env = Bool.random(using: &generator) ? session : [:]
      let result = Subprocess.run(
        "/usr/bin/timeout", ["10", Sandbox.binDirectory + "/vault"] + words,
        environment: box.environment.merging(env) { $1 }, stdin: input, directory: box.home)
      let line = words.map { $0.debugDescription }.joined(separator: " ")
      if [124, 132, 133, 134, 136, 139].contains(result.status) {
        traps.append("\(result.status): \(line)")
      }
      // Exit 1 is a finding, not a failure, for `audit` (its report) and `find --json` (`[]`).
      // A failed shell-session unlock prints `false` for eval, so that `&&` chains stop.
      let reports =
        (result.status == 1 && (path == ["audit"] || path == ["find"]))
        || (path == ["unlock"] && result.stdoutText == "false\n")
      if result.status != 0 && !result.stdout.isEmpty && !reports {
        noisy.append("\(result.status): \(line)")
      }
    }
    XCTAssertEqual(traps, [])
    XCTAssertEqual(noisy, [])
    print(
      "fuzz: \(runs) command lines, \(traps.count) traps or hangs, \(noisy.count) with stdout on failure"
    )
  }

  /// A vault on a small tmpfs filled to the last byte loses nothing.
  ///
  /// Every write that does not fit fails with a clear error, nothing stored before is lost, and
  /// `check` passes once space is freed. Needs permission to mount (CI runs as root); skipped
  /// otherwise.
  func testFullDisk() throws {
    let box = Sandbox()
    let disk = box.home + "/disk"
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    let mounted = Subprocess.run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=768k,mode=0700", "tmpfs", disk],
      environment: ["PATH": "/usr/bin:/bin"])
    guard mounted.status == 0 else { throw XCTSkip("cannot mount a tmpfs here") }
    defer {
      _ = Subprocess.run("/bin/umount", [disk], environment: ["PATH": "/usr/bin:/bin"])
    }
    let vault = disk + "/vault.db"
    let made = box.vault(
      ["init", "--kdf", "test", "--no-biometry", "--vault", vault], pin: [Sandbox.pin])
    XCTAssertEqual(made.status, 0, made.stderrText)
    let session = [
      "VAULT_SESSION": box.vault(["unlock", "--raw", "--vault", vault], pin: [Sandbox.pin])
        .stdoutText.trimmingCharacters(in: .newlines)
    ]
    // Another file on the same disk, removed at the end to free space.
    try Data(count: 128 * 1024).write(to: URL(fileURLWithPath: disk + "/filler"))
    var stored: [String: [UInt8]] = [:]
    var refusals: [String] = []
    for index in 0..<200 {
      let content = (0..<(20_000 + index * 97)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
      let added = box.vault(["add", "e\(index)", "--vault", vault], stdin: content, env: session)
      if added.status == 0 {
        stored["e\(index)"] = content
      } else {
        XCTAssertEqual(added.status, 1, added.stderrText)
        refusals += added.errorLines
        if refusals.count >= 3 { break }
      }
    }
    XCTAssertFalse(refusals.isEmpty, "the disk never filled")
    for line in refusals {
      XCTAssertTrue(line.hasPrefix("vault: error: ") && line.hasSuffix("nothing was written"), line)
    }
    print("full disk: the refusal reads \(refusals[0].debugDescription)")
    // Every entry stored before is whole, while the disk is still full.
    var lost = 0
    for (name, content) in stored
    where box.vault(["get", name, "--vault", vault], env: session).stdout != content {
      lost += 1
    }
    XCTAssertEqual(lost, 0)
    // Even a removal needs room for its journal; on a full disk it too is a clear refusal.
    let victim = try XCTUnwrap(stored.keys.sorted().first)
    let removal = box.vault(["rm", victim, "--vault", vault], env: session)
    if removal.status != 0 {
      XCTAssertEqual(removal.status, 1)
      XCTAssertTrue(removal.stderrText.contains("nothing was written"), removal.stderrText)
    } else {
      stored[victim] = nil
    }
    // Space freed: a check and a new write pass, and every entry is still whole.
    try FileManager.default.removeItem(atPath: disk + "/filler")
    XCTAssertEqual(box.vault(["check", "--vault", vault], env: session).status, 0)
    XCTAssertEqual(
      box.vault(["add", "after", "--vault", vault], stdin: [1, 2, 3], env: session).status, 0)
    for (name, content) in stored
    where box.vault(["get", name, "--vault", vault], env: session).stdout != content {
      lost += 1
    }
    XCTAssertEqual(lost, 0)
    print(
      "full disk: \(stored.count) entries stored, \(refusals.count) refused with a clear error,"
        + " \(lost) lost")
  }

  /// The libFuzzer targets (header, device state, session file, journal date) run from their
  /// committed corpus for a few seconds each without a crash (`fuzz/run.sh SECONDS` for longer).
  ///
  /// Built unoptimized: the optimized build of VaultCore takes minutes on a small machine.
  func testFuzzTargets() throws {
    let root = GeneratorTestSupport.packageRoot
    guard
      FileManager.default.isExecutableFile(atPath: "/opt/swift/usr/bin/swiftc")
        || ProgramSearch.find("swiftc", ProcessInfo.processInfo.environment) != nil
    else { throw XCTSkip("no swiftc to build the fuzz targets") }
    let seconds = 4 * Self.scale
    let result = Subprocess.run(
      "/bin/bash", ["-c", "cd \"$0\" && fuzz/run.sh \(seconds) -Onone", root],
      environment: ProcessInfo.processInfo.environment)
    XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
    let rows = result.stdoutText.split(separator: "\n").filter { $0.hasPrefix("| ") }
    XCTAssertEqual(rows.count, 5, result.stdoutText)
    for row in rows.dropFirst() { XCTAssertTrue(row.hasSuffix("| 0 |"), String(row)) }
    print("fuzz targets:\n" + result.stdoutText)
  }

  /// `biometry activate` killed at random moments: the vault keeps the old seal or the new one,
  /// and unlocks with the PIN and a match either way.
  func testCrashSafetyOfActivation() throws {
    let box = Sandbox()
    box.initBiometric()
    var generator = SystemRandomNumberGenerator()
    var kills = 0
    var broken = 0
    for _ in 0..<(15 * Self.scale) {
      box.biosim(["next", "match"])
      let status = try runKilled(
        box, ["biometry", "activate", "--pin-fd", "0"], stdin: Array("\(Sandbox.pin)\n".utf8),
        env: [:], delay: Double.random(in: 0...0.04, using: &generator))
      if status == 137 { kills += 1 }
      // An answer the killed activation left queued is a match too.
      box.biosim(["next", "match"])
      let unlock = box.vaultPIN(["unlock", "--raw"])
      if unlock.status != 0 { broken += 1 }
    }
    XCTAssertEqual(broken, 0)
    print("crash: \(kills) kills of biometry activate, \(broken) unopenable")
  }
}
