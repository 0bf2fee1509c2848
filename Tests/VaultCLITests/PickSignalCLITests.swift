import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI

/// Signals reach `vault pick` while its menu is open, however it was started (new-user review
/// of `vault pick`: started as a background job, with SIGINT ignored, a SIGTERM during the menu
/// was caught by a handler left installed, and the secret was copied afterwards).
final class PickSignalCLITests: XCTestCase {
  var box: Sandbox!

  override func setUpWithError() throws {
    try TestTier.requireSystem("signals, the agent")
    box = Sandbox(spawning: true)
    box.initPINOnly()
    let added = box.vaultPIN(["add", "web/site"], stdin: Array("pw1\n".utf8))
    XCTAssertEqual(added.status, 0, added.stderrText)
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 0)
  }

  override func tearDown() {
    box?.vault(["lock"])
    box = nil
  }

  /// With a controlling terminal, typing is refused before the menu.
  ///
  /// Verification review: a terminal that sets no WINDOWID (VTE, tmux, ssh) was typed into,
  /// and an autotype's Enter ran the password as a command.
  func testTypingIsRefusedOnATerminal() throws {
    let started = box.home + "/menu-started"
    let script = Subprocess.run(
      "/usr/bin/script",
      [
        "-qec",
        "'\(Sandbox.binDirectory)/vault' pick --autotype --menu 'touch \(started); echo web/site'",
        "/dev/null",
      ],
      environment: box.environment.merging(["DISPLAY": ":93"]) { $1 }, directory: box.home)
    XCTAssertEqual(script.status, 1, script.stdoutText)
    XCTAssertEqual(
      script.stdoutText.split(separator: "\r\n").map(String.init),
      [
        "vault: error: pick runs on a terminal, whose window has the focus: --type and"
          + " --autotype type into the window you were in when a launcher key ran pick; use"
          + " --clip or --print here"
      ])
    XCTAssertFalse(FileManager.default.fileExists(atPath: started), "no menu was shown")
  }

  func testSIGTERMDuringTheMenuEndsPickWithNothingHandedOut() throws {
    for ignored in ["", "trap '' INT QUIT; ", "trap '' INT QUIT HUP; "] {
      let started = box.home + "/menu-started"
      try? FileManager.default.removeItem(atPath: started)
      let menu = "cat >/dev/null; touch '\(started)'; sleep 5; echo web/site"
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c", ignored + "exec '\(Sandbox.binDirectory)/vault' pick --print --menu \"$MENU\"",
      ]
      process.environment = box.environment.merging(["MENU": menu]) { $1 }
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let deadline = Date() + 10
      while !FileManager.default.fileExists(atPath: started) && Date() < deadline {
        usleep(20_000)
      }
      XCTAssertTrue(FileManager.default.fileExists(atPath: started), "the menu is open")
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
      XCTAssertEqual(process.terminationReason, .uncaughtSignal, ignored)
      XCTAssertEqual(process.terminationStatus, SIGTERM, ignored)
      XCTAssertEqual(output.fileHandleForReading.readDataToEndOfFile(), Data(), ignored)
    }
  }
}
