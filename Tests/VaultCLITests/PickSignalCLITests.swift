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
