import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault run --env` and `vault inject` through the built binary.
final class RunInjectCLITests: XCTestCase {
  var box: Sandbox!
  // XCTest keeps every test case alive until the run ends: release the folder (and its agent).
  override func tearDown() { box = nil }
  var session: [String: String] = [:]

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
    let content = "s3cret pw\nusername: alice\nurl: https://x.example:8443/\n"
    XCTAssertEqual(box.vault(["add", "site"], stdin: Array(content.utf8), env: session).status, 0)
    XCTAssertEqual(box.vault(["add", "a:b"], stdin: Array("colon".utf8), env: session).status, 0)
  }

  func testRunSetsTheVariablesAndExitsWithTheCommandsStatus() {
    let result = box.vault(
      [
        "run", "--env", "USER_NAME=site:username", "--env", "PW=site", "--env", "C=a:b:password",
        "--", "/bin/sh", "-c",
        #"printf '%s|%s|%s|%s|' "$USER_NAME" "$PW" "$C" "${VAULT_SESSION-unset}"; exit 7"#,
      ], env: session)
    XCTAssertEqual(result.status, 7, result.stderrText)
    XCTAssertEqual(result.stdoutText, "alice|s3cret pw|colon|unset|")
    XCTAssertEqual(result.stderr, [])
  }

  /// COMMAND inherits descriptors 0-2 only (not the vault file, not --pin-fd), the caller's
  /// umask and signal dispositions, and a plain PATH search.
  func testTheCommandGetsNoDescriptorAndVaultsOwnSettingsBack() {
    let baseline = Subprocess.run(
      "/bin/sh", ["-c", "umask; grep -E '^Sig(Ign|Blk)' /proc/self/status"],
      environment: box.environment)
    // The PIN comes on descriptor 3, which COMMAND must not inherit.
    let result = Subprocess.run(
      Sandbox.binDirectory + "/vault",
      [
        "run", "--pin-fd", "3", "--env", "PW=site", "--", "sh", "-c",
        "umask; grep -E '^Sig(Ign|Blk)' /proc/self/status; ls /proc/self/fd",
      ], environment: box.environment, extra: (fd: 3, data: Array("\(Sandbox.pin)\n".utf8)),
      directory: box.home)
    XCTAssertEqual(result.status, 0, result.stderrText)
    let lines = result.stdoutText.split(separator: "\n").map(String.init)
    XCTAssertEqual(
      Array(lines.prefix(3)), baseline.stdoutText.split(separator: "\n").map(String.init))
    XCTAssertEqual(Array(lines.dropFirst(3)), ["0", "1", "2", "3"], "ls's own folder is 3")
  }

  func testRunRefusals() {
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: box.home + "/plain-file", contents: Data("echo no\n".utf8),
        attributes: [.posixPermissions: 0o600]))
    for (arguments, status, line) in [
      (["--env", "X=nothing", "--", "true"], Int32(3), "vault: error: no entry named 'nothing'"),
      (["--env", "X=site:email", "--", "true"], 3, "vault: error: 'site' has no field 'email'"),
      (
        ["--env", "1X=site", "--", "true"], 64,
        "vault: error: invalid value for --env: '1X' is not a variable name (letters, digits and"
          + " '_', not starting with a digit)"
      ),
      (
        ["--env", "VAULT_X=site", "--", "true"], 64,
        "vault: error: invalid value for --env: VAULT_ variables are vault's own and never reach"
          + " a child program"
      ),
      (["--env", "X", "--", "true"], 64, "vault: error: --env needs VAR=NAME[:FIELD], not 'X'"),
      (["--env", "X=", "--", "true"], 5, "vault: error: the name is empty"),
      (
        ["--env", "X=site", "--", "no-such-program-here"], 127,
        "vault: error: 'no-such-program-here' was not found on PATH; nothing was read"
      ),
      (["--", "./plain-file"], 126, "vault: error: cannot run './plain-file': Permission denied"),
      (
        ["--env", "X=site", "--env", "X=site:url", "--", "true"], 64,
        "vault: error: --env gives X twice"
      ),
    ] {
      let result = box.vault(["run"] + arguments, env: session)
      XCTAssertEqual(result.status, status, "\(arguments) \(result.stderrText)")
      XCTAssertEqual(result.errorLines.first, line)
      XCTAssertEqual(result.stdout, [])
    }
  }

  func testAGuardedEntryIsRefusedInASession() {
    XCTAssertEqual(
      box.vault(["add", "--guard", "g"], stdin: Array("guarded".utf8), env: session).status, 0)
    let refused = box.vault(["run", "--env", "G=g", "--", "true"], env: session)
    XCTAssertEqual(refused.status, 10)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: 'g' is guarded: every read needs fresh authentication, which a session"
          + " does not give",
        "vault: hint: run the command without VAULT_SESSION, or use 'vault get'",
      ])
    let withPIN = box.vault(["run", "--env", "G=g", "--", "printenv", "G"], pin: nil)
    XCTAssertEqual(withPIN.status, 10, "no session, no terminal, no --pin-fd: locked")
  }

  func testInjectFillsPlaceholdersByteForByte() throws {
    let template =
      "user={{ vault site:username }}\npw={{vault site}}\nc={{  vault a:b:password  }}\n"
      + "tab={{\tvault\tsite:username\t}}\nleft={{ other }} {{vaultx}}\n"
    let result = box.vault(["inject"], stdin: Array(template.utf8), env: session)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(
      result.stdoutText,
      "user=alice\npw=s3cret pw\nc=colon\ntab=alice\nleft={{ other }} {{vaultx}}\n")
    let force = box.vault(["inject", "--force"], stdin: [0x61], env: session)
    XCTAssertEqual(force.status, 64)
    XCTAssertEqual(force.errorLines.first, "vault: error: --force needs --output")
    let plain = box.vault(["inject"], stdin: Array("no placeholders\n".utf8))
    XCTAssertEqual(plain.status, 0, "nothing to fill needs no key: \(plain.stderrText)")
    XCTAssertEqual(plain.stdoutText, "no placeholders\n")

    let path = box.home + "/out.env"
    let written = box.vault(
      ["inject", "--output", path], stdin: Array("U={{ vault site:username }}".utf8), env: session)
    XCTAssertEqual(written.status, 0, written.stderrText)
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "U=alice")
    var info = stat()
    XCTAssertEqual(stat(path, &info), 0)
    XCTAssertEqual(info.st_mode & 0o777, 0o600)
    let again = box.vault(["inject", "--output", path], stdin: [0x61], env: session)
    XCTAssertEqual(again.status, 5)
    XCTAssertEqual(again.errorLines, ["vault: error: \(path) exists; give --force to replace it"])
    XCTAssertEqual(
      box.vault(["inject", "--output", path, "--force"], stdin: [0x61], env: session).status, 0)
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "a")
  }

  func testInjectErrorsNameTheLineAndWriteNothing() {
    for (template, status, lines) in [
      (
        "ok\nx={{ vault site:username\n", Int32(5),
        ["vault: error: line 2: a '{{ vault' placeholder is not closed by '}}' on its line"]
      ),
      (
        "a={{ vault site }}\n\nb={{ vault nothing:x }}\n", 3,
        ["vault: error: line 3: no entry named 'nothing'", "vault: hint: see 'vault list'"]
      ),
      (
        "{{ vault site:two words }}", 5,
        [
          "vault: error: line 1: 'two words' is not a field key: use 1 to 64 bytes without spaces,"
            + " control characters or ':'"
        ]
      ),
    ] {
      let result = box.vault(["inject"], stdin: Array(template.utf8), env: session)
      XCTAssertEqual(result.status, status, template)
      XCTAssertEqual(result.errorLines, lines)
      XCTAssertEqual(result.stdout, [], "nothing is written")
    }
  }
}

extension TerminalTests {
  func testInjectRefusesToWriteToATerminal() throws {
    let box = Sandbox()
    box.initPINOnly()
    let run = try drive(box, ["inject"], script: [])
    XCTAssertEqual(run.status, 64, run.output)
    XCTAssertTrue(
      run.output.hasPrefix(
        "vault: error: standard output is a terminal; vault inject writes secrets only to a file"
          + " or a pipe\r\nvault: hint: use --output PATH (written with mode 0600)\r\n"), run.output
    )
  }
}

/// The second attack pass on `run` and `inject --output`.
final class RunInjectAttackTests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "db"], stdin: Array("hunter2".utf8), env: session).status, 0)
  }

  /// A caller that ignores SIGPIPE (systemd, Python) and sets a core limit gets both back in
  /// COMMAND, with its umask and signal mask.
  func testTheCallersSettingsComeBackEvenWhenItIgnoresSIGPIPE() {
    let probe = "umask; grep -E '^Sig(Ign|Blk)' /proc/self/status; ulimit -c"
    let setup = "umask 027; ulimit -c 1234; trap '' PIPE;"
    let baseline = box.shell("\(setup) sh -c \"\(probe)\"", env: session)
    let result = box.shell(
      "\(setup) vault run --env P=db -- sh -c \"\(probe)\"", env: session)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.stdoutText, baseline.stdoutText)
    XCTAssertTrue(baseline.stdoutText.hasPrefix("0027\n"), baseline.stdoutText)
    XCTAssertTrue(baseline.stdoutText.hasSuffix("1234\n"), baseline.stdoutText)
  }

  func testAMissingPathIs127BeforeAnythingIsReadAndAScriptWithoutShebangRuns() throws {
    let missing = box.vault(["run", "--env", "P=db", "--", "./nowhere"], env: session)
    XCTAssertEqual(missing.status, 127)
    XCTAssertEqual(
      missing.errorLines, ["vault: error: './nowhere' was not found on PATH; nothing was read"])
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: box.home + "/script", contents: Data("printf '%s' \"$P\"\n".utf8),
        attributes: [.posixPermissions: 0o700]))
    let script = box.vault(["run", "--env", "P=db", "--", "./script"], env: session)
    XCTAssertEqual(script.status, 0, script.stderrText)
    XCTAssertEqual(script.stdoutText, "hunter2")
  }

  /// `--output` takes its name only when complete and never replaces what appeared meanwhile:
  /// a file, or a dangling symbolic link; with --force, only a regular file is replaced.
  func testOutputNeverOverwritesWithoutForceAndLeavesNoTemporaryFile() throws {
    let folder = box.home + "/out"
    XCTAssertEqual(mkdir(folder, 0o700), 0)
    XCTAssertEqual(symlink(box.home + "/nowhere", folder + "/dangling"), 0)
    let dangling = box.vault(
      ["inject", "--output", folder + "/dangling"], stdin: Array("{{ vault db }}".utf8),
      env: session)
    XCTAssertEqual(dangling.status, 5)
    XCTAssertEqual(
      dangling.errorLines, ["vault: error: \(folder)/dangling exists; give --force to replace it"])
    XCTAssertEqual(
      box.vault(
        ["inject", "--output", folder + "/dangling", "--force"], stdin: [0x61], env: session
      ).errorLines,
      ["vault: error: \(folder)/dangling is not a regular file; refusing to replace it"])
    // The PIN is read from a FIFO, so a file can appear at the path while vault waits for it.
    let fifo = box.home + "/pin"
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: box.home + "/template", contents: Data("{{ vault db }}".utf8)))
    let racing = box.shell(
      """
      ( vault inject --output out/racing --pin-fd 3 < template 3<>pin; echo "rc=$?" ) &
      sleep 1; echo precious > out/racing; echo "$PIN" > pin; wait
      """)
    XCTAssertEqual(racing.stdoutText, "rc=5\n", racing.stderrText)
    XCTAssertEqual(try String(contentsOfFile: folder + "/racing", encoding: .utf8), "precious\n")
    let written = box.vault(
      ["inject", "--output", folder + "/new"], stdin: Array("x={{ vault db }}".utf8), env: session)
    XCTAssertEqual(written.status, 0, written.stderrText)
    XCTAssertEqual(try String(contentsOfFile: folder + "/new", encoding: .utf8), "x=hunter2")
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted(),
      ["dangling", "new", "racing"], "no temporary file is left")
  }
}
