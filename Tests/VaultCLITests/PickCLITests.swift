import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultCrypto

/// `vault pick` with a scripted menu and scripted typing tools, in this process (issue "The
/// agent as the one key holder…", `vault pick`).
///
/// The menu is a shell script that logs what it was given and prints a name; the typing tools
/// are scripts named xdotool, wtype and ydotool that log their argv and input, so what vault asks
/// of each is asserted byte for byte. `PickDesktopTests` runs the real programs.
final class PickCLITests: XCTestCase {
  var box: Sandbox!
  var bin: String { box.home + "/bin" }
  var log: String { box.home + "/log" }
  var menuInput: String { box.home + "/menu-input" }

  override func setUpWithError() throws {
    box = Sandbox()
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    box.initPINOnly()
    add("web/site", "pw1\nusername: alice\nurl: https://example.org\n")
    add("mail/box", "other\n")
    add(
      "otp/bank",
      "bankpw\notp: otpauth://hotp/bank?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=0\n")
  }

  override func tearDown() { box = nil }

  func add(_ name: String, _ content: String) {
    let added = box.vaultPIN(["add", name], stdin: Array(content.utf8))
    XCTAssertEqual(added.status, 0, added.stderrText)
  }

  /// A menu script that keeps its standard input in `menuInput`, then runs `then` (by default:
  /// prints `choice`).
  func menu(printing choice: String = "web/site", then: String? = nil) throws -> String {
    let path = bin + "/menu"
    let text = "#!/bin/sh\ncat > '\(menuInput)'\n" + (then ?? "printf '%s\\n' '\(choice)'\n")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o755)
    return path
  }

  /// A scripted typing tool named `name` on the sandbox's PATH: it logs its argv and, for
  /// text, its standard input in brackets; xdotool's window questions get the answers given.
  func tool(
    _ name: String, focused: String = "4242", windowExists: Bool = true,
    movesAfter: Int = 1000
  ) throws {
    let path = bin + "/" + name
    let text = """
      #!/bin/sh
      printf '%s\\n' "\(name) $*" >> '\(log)'
      case "$*" in
        getwindowfocus)
          [ -n '\(focused)' ] || exit 1
          n=$(grep -c getwindowfocus '\(log)')
          if [ "$n" -gt \(movesAfter) ]; then echo 999; else echo '\(focused)'; fi ;;
        getwindowname*) \(windowExists ? "echo term" : "exit 1") ;;
        *--file\\ -|-) printf '[' >> '\(log)'; cat >> '\(log)'; printf ']\\n' >> '\(log)' ;;
      esac
      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o755)
  }

  func logged() -> [String] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init).dropLast()
  }

  func pick(_ arguments: [String], env: [String: String] = [:]) -> Subprocess.Result {
    box.vaultPIN(["pick"] + arguments, env: ["PATH": bin + ":/usr/bin:/bin"].merging(env) { $1 })
  }

  func testThePasswordOfTheChosenNameIsPrintedAndTheMenuGetsOnlyTheNames() throws {
    let result = pick(["--menu", try menu(), "--print"])
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.stdoutText, "pw1")
    XCTAssertEqual(result.errorLines, [])
    XCTAssertEqual(
      try String(contentsOfFile: menuInput, encoding: .utf8), "mail/box\notp/bank\nweb/site\n")
  }

  func testAFieldUnderAPrefix() throws {
    let result = pick(["web/", "--menu", try menu(), "--print", "--field", "username"])
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.stdoutText, "alice")
    XCTAssertEqual(try String(contentsOfFile: menuInput, encoding: .utf8), "web/site\n")
    let missing = pick(["--menu", try menu(), "--print", "--field", "pin"])
    XCTAssertEqual(missing.status, 3)
    XCTAssertEqual(
      missing.errorLines,
      [
        "vault: error: 'web/site' has no field 'pin'",
        "vault: hint: its fields: password, username, url",
      ])
  }

  func testTheOneTimeCodeAdvancesAnHOTPCounter() throws {
    let script = try menu(printing: "otp/bank")
    // RFC 4226's test secret: counters 0 and 1.
    for expected in ["755224", "287082"] {
      let result = pick(["--menu", script, "--print", "--otp"])
      XCTAssertEqual(result.status, 0, result.stderrText)
      XCTAssertEqual(result.stdoutText, expected)
    }
  }

  func testEscapeInTheMenuCancels() throws {
    for status in [1, 130] {
      let result = pick(["--menu", try menu(then: "exit \(status)\n"), "--print"])
      XCTAssertEqual(result.status, 13, "menu status \(status)")
      XCTAssertEqual(result.stdout, [])
      XCTAssertEqual(result.errorLines, ["vault: error: cancelled: nothing was picked"])
    }
    let empty = pick(["--menu", try menu(then: "true\n"), "--print"])
    XCTAssertEqual(empty.status, 13)
    XCTAssertEqual(empty.errorLines, ["vault: error: cancelled: nothing was picked"])
  }

  func testAMenuThatFailsOrAnswersTwoLines() throws {
    let failed = pick(["--menu", try menu(then: "exit 2\n"), "--print"])
    XCTAssertEqual(failed.status, 1)
    XCTAssertEqual(failed.errorLines, ["vault: error: the menu '\(bin)/menu' failed with status 2"])
    let two = pick(["--menu", try menu(then: "printf 'web/site\\nmail/box\\n'\n"), "--print"])
    XCTAssertEqual(two.status, 1)
    XCTAssertEqual(
      two.errorLines,
      ["vault: error: the menu '\(bin)/menu' printed more than one line; pick one name"])
    XCTAssertEqual(two.stdout, [])
  }

  /// A menu that lets the user type (dmenu, rofi) prints what was typed: only a listed name is
  /// read.
  func testANameTheMenuDidNotListIsNoEntry() throws {
    let result = pick(["mail/", "--menu", try menu(printing: "web/site"), "--print"])
    XCTAssertEqual(result.status, 3)
    XCTAssertEqual(result.stdout, [])
    XCTAssertEqual(result.errorLines.first, "vault: error: no entry named 'web/site'")
  }

  /// New-user review: fzf draws on a terminal; without one it is refused before the PIN.
  func testFzfWithoutATerminalIsRefused() {
    let result = box.vault(["pick", "--menu", "fzf", "--print"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: fzf shows itself on a terminal, and pick runs without one; name another"
          + " menu with --menu (rofi, wofi, dmenu, bemenu)"
      ])
  }

  func testAnEmptyPasswordIsNotTyped() throws {
    try tool("xdotool")
    add("empty/pw", "\nusername: bob\n")
    let typed = pick(
      ["--menu", try menu(printing: "empty/pw"), "--autotype"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(typed.status, 5)
    XCTAssertEqual(
      typed.errorLines, ["vault: error: the password of 'empty/pw' is empty; nothing was typed"])
    XCTAssertFalse(logged().contains { $0.hasPrefix("xdotool type") })
  }

  func testNothingToPick() throws {
    let result = pick(["nothing/", "--menu", try menu(), "--print"])
    XCTAssertEqual(result.status, 3)
    XCTAssertEqual(result.errorLines, ["vault: error: no entry name starts with 'nothing/'"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: menuInput), "no menu was shown")
  }

  func testAMissingMenuOrToolIsFoundBeforeThePIN() throws {
    let env = ["PATH": bin, "DISPLAY": ":93"]
    for (arguments, line) in [
      (["--menu", "rofi", "--print"], "vault: error: the menu rofi was not found on PATH"),
      (
        ["--print"],
        "vault: error: no menu to pick with: install fzf (on a terminal), rofi, wofi, dmenu or"
          + " bemenu, or name a command with --menu"
      ),
      (["--type"], "vault: error: no typing tool found: install xdotool (or ydotool)"),
    ] {
      // No PIN is given: the refusal comes before one is asked for.
      let result = box.vault(["pick"] + arguments, env: env)
      XCTAssertEqual(result.status, 1, "\(arguments)")
      XCTAssertEqual(result.errorLines, [line], "\(arguments)")
    }
    let noDisplay = box.vault(["pick", "--autotype"], env: ["PATH": bin])
    XCTAssertEqual(noDisplay.status, 1)
    XCTAssertEqual(
      noDisplay.errorLines,
      ["vault: error: nothing to type into: neither WAYLAND_DISPLAY nor DISPLAY is set"])
  }

  func testTheCommandLine() {
    for (arguments, message) in [
      (["--print", "--type"], "--print and --type cannot be combined"),
      (["--clip", "--autotype"], "--clip and --autotype cannot be combined"),
      (["--field", "url", "--otp"], "--field and --otp cannot be combined"),
      (
        ["--autotype", "--otp"],
        "--autotype types the username and the password; --otp chooses one value: use it with"
          + " --type"
      ),
      (["--print", "--clip-time", "5"], "--clip-time needs --clip, --type or --autotype"),
      (
        ["--menu", " "],
        "--menu needs a menu (fzf, rofi, wofi, dmenu, bemenu) or a command, not an empty string"
      ),
    ] {
      let result = box.vault(["pick"] + arguments)
      XCTAssertEqual(result.status, 64, "\(arguments)")
      XCTAssertEqual(result.errorLines.first, "vault: error: \(message)", "\(arguments)")
    }
  }

  func testTypedWithXdotoolIntoTheWindowNotedBeforeTheMenu() throws {
    try tool("xdotool")
    let typed = pick(["--menu", try menu(), "--type"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(typed.status, 0, typed.stderrText)
    XCTAssertEqual(typed.stdout, [])
    XCTAssertEqual(typed.errorLines, ["Typed the password of 'web/site' (xdotool)."])
    XCTAssertEqual(
      logged(),
      [
        "xdotool getwindowfocus", "xdotool getwindowname 4242", "xdotool getwindowfocus",
        "xdotool type --clearmodifiers --file -", "[pw1]",
      ])
  }

  func testAutotypeFillsAForm() throws {
    try tool("xdotool")
    let typed = pick(["--menu", try menu(), "--autotype"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(typed.status, 0, typed.stderrText)
    XCTAssertEqual(
      typed.errorLines, ["Typed the username and password of 'web/site' (xdotool)."])
    XCTAssertEqual(
      logged(),
      [
        "xdotool getwindowfocus", "xdotool getwindowname 4242", "xdotool getwindowfocus",
        "xdotool type --clearmodifiers --file -", "[alice]", "xdotool getwindowfocus",
        "xdotool key --clearmodifiers Tab", "xdotool getwindowfocus",
        "xdotool type --clearmodifiers --file -", "[pw1]", "xdotool getwindowfocus",
        "xdotool key --clearmodifiers Return",
      ])
    let noUser = pick(
      ["--menu", try menu(printing: "mail/box"), "--autotype"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(noUser.status, 3)
    XCTAssertEqual(
      noUser.errorLines,
      ["vault: error: 'mail/box' has no field 'username'", "vault: hint: its fields: password"])
  }

  /// Attack review: a window that takes the focus during an autotype gets nothing more, above
  /// all not the password and its Enter.
  func testTypingStopsWhenTheFocusMoves() throws {
    try tool("xdotool", movesAfter: 2)
    let typed = pick(["--menu", try menu(), "--autotype"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(typed.status, 1)
    XCTAssertEqual(
      typed.errorLines,
      ["vault: error: the focus moved to another window while typing; the rest was not typed"])
    XCTAssertEqual(
      logged(),
      [
        "xdotool getwindowfocus", "xdotool getwindowname 4242", "xdotool getwindowfocus",
        "xdotool type --clearmodifiers --file -", "[alice]", "xdotool getwindowfocus",
      ])
  }

  /// Attack review: run on a terminal, the focused window is that terminal, where an autotype's
  /// Enter would run the password as a command (and keep it in the shell's history).
  func testTypingIntoTheTerminalPickRunsInIsRefused() throws {
    try tool("xdotool")
    let typed = pick(
      ["--menu", try menu(), "--autotype"], env: ["DISPLAY": ":93", "WINDOWID": "4242"])
    XCTAssertEqual(typed.status, 1)
    XCTAssertEqual(
      typed.errorLines,
      [
        "vault: error: the window with the focus is the terminal pick runs in; --type and"
          + " --autotype type into the window you were in when a launcher key ran pick: use"
          + " --clip or --print here"
      ])
    XCTAssertEqual(logged(), ["xdotool getwindowfocus"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: menuInput), "no menu was shown")
  }

  /// Attack review: a menu's answer is read up to its bound, not whole.
  func testAMenuThatFloodsItsOutputIsStopped() throws {
    let result = pick(["--menu", "yes", "--print"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.errorLines, ["vault: error: the menu 'yes' printed more than 16384 bytes"])
  }

  /// Attack review: a relative folder of PATH (`bin`, `.`) is wherever the command runs, and is
  /// passed over when vault looks for a program it hands names or secrets to.
  func testRelativeFoldersOfPathArePassedOver() throws {
    try tool("xdotool")
    let typed = pick(["--menu", try menu(), "--type"], env: ["DISPLAY": ":93", "PATH": "bin:."])
    XCTAssertEqual(typed.status, 1)
    XCTAssertEqual(
      typed.errorLines, ["vault: error: no typing tool found: install xdotool (or ydotool)"])
    XCTAssertEqual(logged(), [])
  }

  func testNothingIsTypedWhenTheWindowIsGoneOrNoneHasTheFocus() throws {
    try tool("xdotool", windowExists: false)
    let gone = pick(["--menu", try menu(), "--type"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(gone.status, 1)
    XCTAssertEqual(
      gone.errorLines,
      [
        "vault: error: the window that had the focus when the menu opened is gone; nothing was"
          + " typed"
      ])
    XCTAssertEqual(logged(), ["xdotool getwindowfocus", "xdotool getwindowname 4242"])
    for file in [log, menuInput] { try FileManager.default.removeItem(atPath: file) }
    try tool("xdotool", focused: "")
    let none = pick(["--menu", try menu(), "--type"], env: ["DISPLAY": ":93"])
    XCTAssertEqual(none.status, 1)
    XCTAssertEqual(
      none.errorLines,
      ["vault: error: no window has the keyboard focus, so there is nothing to type into"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: menuInput), "no menu was shown")
  }

  func testWaylandTypesWithWtypeElseYdotool() throws {
    try tool("wtype")
    try tool("ydotool")
    let env = ["WAYLAND_DISPLAY": "wayland-9", "DISPLAY": ""]
    let typed = pick(["--menu", try menu(), "--autotype"], env: env)
    XCTAssertEqual(typed.status, 0, typed.stderrText)
    XCTAssertEqual(
      logged(), ["wtype -", "[alice]", "wtype -k Tab", "wtype -", "[pw1]", "wtype -k Return"])
    try FileManager.default.removeItem(atPath: log)
    try FileManager.default.removeItem(atPath: bin + "/wtype")
    let second = pick(["--menu", try menu(), "--autotype"], env: env)
    XCTAssertEqual(second.status, 0, second.stderrText)
    XCTAssertEqual(
      second.errorLines, ["Typed the username and password of 'web/site' (ydotool)."])
    XCTAssertEqual(
      logged(),
      [
        "ydotool type --file -", "[alice]", "ydotool type --file -", "[\t]",
        "ydotool type --file -", "[pw1]", "ydotool type --file -", "[", "]",
      ])
  }

  /// wtype types any character but control ones; xdotool and ydotool only printable ASCII
  /// (new-user review: xdotool typed `Ü` as `ü` and dropped `🔑`, and pick said it typed it).
  func testWhatEachToolTypesAsItIs() {
    let wtype = Typist(tool: .wtype, path: "/usr/bin/wtype", environment: [:])
    let xdotool = Typist(tool: .xdotool, path: "/usr/bin/xdotool", environment: [:])
    let ydotool = Typist(tool: .ydotool, path: "/usr/bin/ydotool", environment: [:])
    let ascii = SecureBytes(copying: Array(" !~Az09\"'\\".utf8))
    let unicode = SecureBytes(copying: Array("Ünïcødé € 🔑".utf8))
    for typist in [wtype, xdotool, ydotool] { XCTAssertTrue(typist.canType(ascii)) }
    XCTAssertTrue(wtype.canType(unicode))
    XCTAssertFalse(xdotool.canType(unicode))
    XCTAssertFalse(ydotool.canType(unicode))
    for bad: [UInt8] in [[0x61, 0x09, 0x62], [0x61, 0x0A], [0x1B], [0x7F], [0xC2, 0x85], [0xFF]] {
      for typist in [wtype, xdotool, ydotool] {
        XCTAssertFalse(typist.canType(SecureBytes(copying: bad)), "\(typist.tool): \(bad)")
      }
    }
  }
}
