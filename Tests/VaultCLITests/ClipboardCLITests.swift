import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault get --clip` on a virtual X server (Xvfb) with xclip and xsel.
///
/// Covers the copy, the clearing after `--clip-time`, and no clearing once something else was
/// copied. Skipped, with the reason, where Xvfb or the clipboard programs are missing (CI
/// installs `xvfb xclip xsel`).
final class ClipboardCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]
  var server: Process?
  let secret = "s3cret value\nuser: alice\nnotes\n"

  override func setUpWithError() throws {
    try TestTier.requireSystem("clipboard programs and a background clearer")
    box = Sandbox()
    box.initPINOnly()
    session = ["VAULT_SESSION": box.unlock()]
    let added = box.vault(["add", "pw"], stdin: Array(secret.utf8), env: session)
    XCTAssertEqual(added.status, 0, added.stderrText)
  }

  override func tearDown() {
    box = nil
    server?.terminate()
    server?.waitUntilExit()
  }

  /// Starts Xvfb on a free display and sets DISPLAY, or skips saying why.
  func startDisplay(tools: [String]) throws {
    let path = "/usr/bin:/bin"
    for program in tools where ProgramSearch.find(program, ["PATH": path]) == nil {
      throw XCTSkip("\(program) is not installed; the clipboard cannot be tested here")
    }
    let (process, display) = try VirtualDisplay.start()
    server = process
    box.environment["DISPLAY"] = display
  }

  /// The clipboard's content, read with xclip.
  func clipboard() -> String {
    Subprocess.run(
      "/usr/bin/xclip", ["-selection", "clipboard", "-out"], environment: box.environment
    ).stdoutText
  }

  func copy(_ seconds: Int, _ extra: [String] = [], env: [String: String] = [:])
    -> (Subprocess.Result, TimeInterval)
  {
    let start = Date()
    let result = box.vault(
      ["get", "--clip", "--clip-time", "\(seconds)", "pw"] + extra,
      env: session.merging(env) { $1 })
    return (result, Date().timeIntervalSince(start))
  }

  func testCopiedThenClearedAfterTheClipTime() throws {
    try startDisplay(tools: ["xclip"])
    let (result, elapsed) = copy(2)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.stdout, [], "nothing is printed")
    XCTAssertEqual(
      result.errorLines,
      [
        "Copied the password of 'pw' to the clipboard (xclip); it is cleared in 2 s unless"
          + " replaced."
      ])
    XCTAssertLessThan(elapsed, 1.5, "the command returns at once")
    XCTAssertEqual(clipboard(), "s3cret value", "the first line, as pass -c copies")
    Thread.sleep(forTimeInterval: 3.5)
    XCTAssertEqual(clipboard(), "")
  }

  /// Each copy's clearing belongs to that copy: a second copy of the same secret is cleared by
  /// its own timer, never by the first's (from the new-user review of 0.11.0: `get --clip
  /// --clip-time 5; sleep 2; get --clip --clip-time 5` emptied the clipboard 3 s later).
  func testASecondCopyIsClearedByItsOwnTimerOnly() throws {
    try startDisplay(tools: ["xclip"])
    let start = Date()
    XCTAssertEqual(copy(2).0.status, 0)
    Thread.sleep(until: start + 0.5)
    let (second, _) = copy(3)
    XCTAssertEqual(second.status, 0, second.stderrText)
    XCTAssertEqual(
      second.errorLines,
      [
        "Copied the password of 'pw' to the clipboard (xclip); it is cleared in 3 s unless"
          + " replaced."
      ])
    // The first copy's timer ran out at 2 s; the second's runs out at 3.5 s.
    Thread.sleep(until: start + 2.8)
    XCTAssertEqual(clipboard(), "s3cret value", "the first copy's timer cleared the second")
    Thread.sleep(until: start + 4.8)
    XCTAssertEqual(clipboard(), "", "the second copy's timer cleared it")
  }

  func testAReplacedClipboardIsLeftAlone() throws {
    try startDisplay(tools: ["xclip"])
    XCTAssertEqual(copy(2).0.status, 0)
    let replaced = box.shell(
      "printf 'something else' | xclip -selection clipboard -in >/dev/null 2>&1")
    XCTAssertEqual(replaced.status, 0)
    Thread.sleep(forTimeInterval: 3.5)
    XCTAssertEqual(clipboard(), "something else")
  }

  func testXselWhenItIsTheOnlyTool() throws {
    try startDisplay(tools: ["xclip", "xsel"])
    let bin = box.home + "/bin"
    mkdir(bin, 0o700)
    symlink(ProgramSearch.find("xsel", ["PATH": "/usr/bin:/bin"]) ?? "", bin + "/xsel")
    let (result, _) = copy(2, ["--all"], env: ["PATH": bin])
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      ["Copied all of 'pw' to the clipboard (xsel); it is cleared in 2 s unless replaced."])
    XCTAssertEqual(clipboard(), secret, "--all copies the whole entry")
    Thread.sleep(forTimeInterval: 3.5)
    XCTAssertEqual(clipboard(), "")
  }

  func testNoClipboardIsAClearErrorBeforeAnyPrompt() {
    let headless = box.vault(["get", "--clip", "pw"], pin: [Sandbox.pin])
    XCTAssertEqual(headless.status, 1)
    XCTAssertEqual(
      headless.errorLines,
      ["vault: error: no clipboard: neither WAYLAND_DISPLAY nor DISPLAY is set"])
    let missing = box.vault(
      ["get", "--clip", "pw"], env: ["DISPLAY": ":99", "PATH": box.home + "/nothing"])
    XCTAssertEqual(missing.status, 1)
    XCTAssertEqual(
      missing.errorLines,
      [
        "vault: error: no clipboard tool found: install wl-clipboard (Wayland), or xclip or"
          + " xsel (X11)"
      ])
    let time = box.vault(["get", "--clip", "--clip-time", "0", "pw"], env: session)
    XCTAssertEqual(time.status, 64)
    XCTAssertEqual(
      time.errorLines,
      [
        "vault: error: --clip-time needs whole seconds from 1 to 3600, not '0'",
        "Usage: vault get [--field KEY] [--line N] [--fields] [--json] [--revision R] [--clip]"
          + " [--clip-time SECONDS] [--all] NAME",
      ])
    XCTAssertEqual(
      box.vault(["get", "--clip-time", "5", "pw"], env: session).errorLines,
      [
        "vault: error: --clip-time needs --clip",
        "Usage: vault get [--field KEY] [--line N] [--fields] [--json] [--revision R] [--clip]"
          + " [--clip-time SECONDS] [--all] NAME",
      ])
  }

  func testContentThatIsNotTextIsCopiedOnlyWhole() throws {
    try startDisplay(tools: ["xclip"])
    XCTAssertEqual(box.vault(["add", "bin"], stdin: [0x70, 0xFF], env: session).status, 0)
    let refused = box.vault(["get", "-c", "bin"], env: session)
    XCTAssertEqual(refused.status, 5)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: the content is not UTF-8 text (invalid UTF-8 or a NUL byte), so it has no"
          + " first line to copy; copy it whole with --all"
      ])
    XCTAssertEqual(box.vault(["get", "-c", "--all", "bin"], env: session).status, 0)
    XCTAssertEqual(
      box.vault(["add", "nopw"], stdin: Array("\nuser: ada\n".utf8), env: session).status, 0)
    let empty = box.vault(["get", "-c", "nopw"], env: session)
    XCTAssertEqual(empty.status, 5)
    XCTAssertEqual(
      empty.errorLines, ["vault: error: the password of 'nopw' is empty; nothing was copied"])
  }

  func testAFieldOrALineIsCopied() throws {
    try startDisplay(tools: ["xclip"])
    let (field, _) = copy(30, ["--field", "user"])
    XCTAssertEqual(
      field.errorLines,
      [
        "Copied field 'user' of 'pw' to the clipboard (xclip); it is cleared in 30 s unless"
          + " replaced."
      ])
    XCTAssertEqual(clipboard(), "alice")
    let (line, _) = copy(30, ["--line", "3"])
    XCTAssertEqual(
      line.errorLines,
      ["Copied line 3 of 'pw' to the clipboard (xclip); it is cleared in 30 s unless replaced."])
    XCTAssertEqual(clipboard(), "notes")
    let listing = box.vault(["get", "--clip", "--fields", "pw"], env: session)
    XCTAssertEqual(listing.status, 64)
    XCTAssertEqual(
      listing.errorLines.first, "vault: error: --clip copies one value; --fields prints a listing")
  }

  /// A wl-copy that has `--sensitive` gets it; one without it copies as before.
  ///
  /// The fake tools record their arguments and input.
  func testWlCopyMarksTheCopyAsSecretWhenItCan() throws {
    for (help, expected) in [("  --sensitive  mark as secret", "--sensitive"), ("  --type", "")] {
      let bin = box.home + "/wl-" + (expected.isEmpty ? "old" : "new")
      mkdir(bin, 0o700)
      let log = bin + "/log"
      let copier = """
        #!/bin/sh
        if [ "$1" = --help ]; then echo '\(help)'; exit 0; fi
        echo "args:$*" >> \(log)
        cat > \(bin)/content
        """
      let paster = "#!/bin/sh\ncat \(bin)/content\n"
      for (name, script) in [("wl-copy", copier), ("wl-paste", paster)] {
        _ = FileManager.default.createFile(
          atPath: bin + "/" + name, contents: Data(script.utf8),
          attributes: [.posixPermissions: 0o700])
      }
      let (result, _) = copy(
        60, env: ["WAYLAND_DISPLAY": "wayland-test", "PATH": bin + ":/usr/bin:/bin"])
      XCTAssertEqual(result.status, 0, result.stderrText)
      XCTAssertEqual(
        (try? String(contentsOfFile: log, encoding: .utf8)), "args:\(expected)\n", help)
      XCTAssertEqual(
        (try? String(contentsOfFile: bin + "/content", encoding: .utf8)), "s3cret value")
    }
  }

  func testGenerateCopiesTheNewSecret() throws {
    try startDisplay(tools: ["xclip"])
    let made = box.vault(["generate", "--clip", "--clip-time", "30", "new"], env: session)
    XCTAssertEqual(made.status, 0, made.stderrText)
    XCTAssertEqual(made.stdout, [])
    XCTAssertEqual(
      made.errorLines,
      [
        "Stored a new 24-character password (from 90 characters) as 'new'; entropy 155 bits.",
        "Copied the new secret to the clipboard (xclip); it is cleared in 30 s unless replaced.",
      ])
    XCTAssertEqual(clipboard(), box.vault(["get", "new"], env: session).stdoutText)
    XCTAssertEqual(clipboard().count, 24)
  }
}
