import Foundation
import XCTest

/// No copy of the device state, device secret included, outlives a killed command (from the
/// fault review of 0.11.0: `vault unlock` SIGKILLed at random moments left 26 `.tmp-*` copies
/// of `device.json` that no later command removed).
final class DeviceTemporaryFilesTests: XCTestCase {
  var box: Sandbox!
  var state: String { box.home + "/state/vault" }

  override func setUp() {
    box = Sandbox()
    box.initPINOnly()
  }

  override func tearDown() { box = nil }

  /// The names in the state folder that are not the device state's own files.
  func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: state).filter {
      // The device state, its lock, and the record of the agent's folder (paths only).
      !["device.json", "device.lock", "agent-folders"].contains($0)
    }.sorted()
  }

  /// Starts `vault unlock --raw` with the PIN on standard input and SIGKILLs it after `delay`
  /// seconds unless it has ended.
  func unlockKilled(after delay: Double) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Sandbox.binDirectory + "/vault")
    process.arguments = ["unlock", "--raw", "--pin-fd", "0"]
    process.environment = box.environment
    let input = try XCTUnwrap(FileHandle(forReadingAtPath: box.home + "/pin"))
    defer { try? input.close() }
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    usleep(useconds_t(delay * 1e6))
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// A copy left by an unlock killed just before its rename (the crash point
  /// `device-before-rename`), one left by 0.11.0 and whatever unlocks killed at random moments
  /// left are all gone after one command that takes the device lock.
  func testAKilledUnlockLeavesNoCopyOfTheDeviceState() throws {
    let crashed = box.vaultPIN(
      ["unlock", "--raw"], env: ["VAULT_TEST_CRASH": "device-before-rename"])
    XCTAssertEqual(crashed.status, 137, crashed.stderrText)
    let left = try leftovers()
    XCTAssertEqual(left.count, 1, "\(left)")
    XCTAssertTrue(left.first?.hasPrefix(".device.json.tmp-") ?? false, "\(left)")
    XCTAssertEqual(left.first?.count, 17 + 32, "\(left)")
    let device = try Data(contentsOf: URL(fileURLWithPath: state + "/device.json"))
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: state + "/.tmp-Ab12Cd", contents: device, attributes: [.posixPermissions: 0o600]))
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: box.home + "/pin", contents: Data((Sandbox.pin + "\n").utf8)))
    let started = Date()
    var tries = 0
    while tries < 30 && Date().timeIntervalSince(started) < 3 {
      try unlockKilled(after: Double.random(in: 0...0.04))
      tries += 1
    }
    let unlocked = box.vaultPIN(["unlock", "--raw"])
    XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    XCTAssertEqual(try leftovers(), [], "after \(tries) killed unlocks")
  }
}
