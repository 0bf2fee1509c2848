import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// Each device's policy is its own (`vault(5)` DEVICES `policy`), through the built binaries.
///
/// Third attack review, H4: the policy was one header field that a sync took from the remote, so
/// a device that held the master key could turn the biometric check off on every device, and a
/// `vault biometry activate` on one device made the others exit 16 until they activated too.
final class SyncPolicyCLITests: XCTestCase {
  var pair: SyncPair!

  override func setUpWithError() throws {
    try TestTier.requireSystem("real git")
    pair = SyncPair()
    pair.inStep()
  }

  override func tearDown() { pair = nil }

  /// `vault biometry activate` on `box` (its PIN, a new finger, a match), then its sync (with a
  /// match).
  private func activate(_ box: Sandbox, pin: String) {
    XCTAssertEqual(box.biosim(["enroll", "--label", "right-index"]).status, 0)
    box.biosim(["next", "match"])
    let activated = box.vault(["biometry", "activate"], pin: [pin])
    XCTAssertEqual(activated.status, 0, activated.stderrText)
    box.biosim(["next", "match"])
    let synced = box.vault(["sync"], pin: [pin])
    XCTAssertEqual(synced.status, 0, synced.stderrText)
  }

  /// `vault get mail/work` on `box` with its PIN and no match queued.
  private func getWithPINAlone(_ box: Sandbox, pin: String) -> Subprocess.Result {
    box.vault(["get", "mail/work"], pin: [pin])
  }

  func testActivatingOnOneDeviceLeavesTheOtherPINOnly() {
    activate(pair.b, pin: SyncPair.pinB)
    XCTAssertEqual(pair.syncA().status, 0)
    let read = getWithPINAlone(pair.a, pin: Sandbox.pin)
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "hunter2")
    XCTAssertEqual(pair.a.statusJSON()["policy"] as? String, "pin")
    // B's own check stands: no match, no key; a new PIN keeps it.
    XCTAssertEqual(getWithPINAlone(pair.b, pin: SyncPair.pinB).status, 10)
    pair.b.biosim(["next", "match"])
    let passwd = pair.b.vault(["passwd"], pin: [SyncPair.pinB, "975310"])
    XCTAssertEqual(passwd.status, 0, passwd.stderrText)
    XCTAssertEqual(getWithPINAlone(pair.b, pin: "975310").status, 10)
    XCTAssertEqual(pair.b.statusJSON()["policy"] as? String, "pin+biometry")
  }

  /// New-user review: a biometric device that took another device's rotation found its seal
  /// "failed authentication" (exit 17): its own record kept the seal under the old key.
  func testABiometricDeviceKeepsItsActivationWhenItTakesARotation() throws {
    activate(pair.b, pin: SyncPair.pinB)
    XCTAssertEqual(pair.syncA().status, 0)
    let (rotation, _) = try RekeyCLITests.rekey(pair.a, currentCode: pair.recoveryCode)
    XCTAssertEqual(rotation.status, 0, rotation.output)
    pair.b.biosim(["next", "match", "--count", "2"])
    let took = pair.syncB()
    XCTAssertEqual(took.status, 0, took.stderrText)
    XCTAssertTrue(took.stderrText.contains("Took the vault's new master key"), took.stderrText)
    pair.b.biosim(["next", "--clear"])
    pair.b.biosim(["next", "match"])
    let read = getWithPINAlone(pair.b, pin: SyncPair.pinB)
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "hunter2")
    pair.b.biosim(["next", "match"])
    XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0)
  }

  func testDeactivatingOnOneDeviceLeavesTheOtherBiometric() {
    activate(pair.a, pin: Sandbox.pin)
    activate(pair.b, pin: SyncPair.pinB)
    pair.b.biosim(["next", "match"])
    let off = pair.b.vault(["biometry", "deactivate"], pin: [SyncPair.pinB])
    XCTAssertEqual(off.status, 0, off.stderrText)
    XCTAssertEqual(pair.syncB().status, 0)
    pair.a.biosim(["next", "match"])
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(getWithPINAlone(pair.a, pin: Sandbox.pin).status, 10)
    XCTAssertEqual(pair.a.statusJSON()["policy"] as? String, "pin+biometry")
    XCTAssertEqual(getWithPINAlone(pair.b, pin: SyncPair.pinB).stdoutText, "hunter2")
  }

  /// A device that holds the master key sets B's record to PIN only and pushes: B takes the
  /// rest but keeps its own record, and with it its check.
  func testARemoteCannotTurnADevicesBiometricCheckOff() throws {
    activate(pair.b, pin: SyncPair.pinB)
    XCTAssertEqual(pair.syncA().status, 0)
    let (vault, key) = try pair.openA()
    var header = vault.header
    for index in header.devices.indices {
      header.devices[index].policy = .pinOnly
      header.devices[index].biometry = nil
    }
    try vault.writeHeader(header, masterKey: key)
    XCTAssertEqual(pair.syncA().status, 0)

    pair.b.biosim(["next", "match"])
    let synced = pair.syncB()
    XCTAssertEqual(synced.status, 0, synced.stderrText)
    XCTAssertEqual(getWithPINAlone(pair.b, pin: SyncPair.pinB).status, 10)
    XCTAssertEqual(pair.b.statusJSON()["policy"] as? String, "pin+biometry")
    pair.b.biosim(["next", "match"])
    XCTAssertEqual(getWithPINAlone(pair.b, pin: SyncPair.pinB).stdoutText, "hunter2")
  }

  /// The header's policy, the one a device that joins starts with, changes by no command: a
  /// remote that changed it is refused (attack review: a key holder made every new device
  /// PIN-only), and a device record of a release before 0.11.0, without a policy of its own, is
  /// not locked out (exit 16, "not activated") by a remote that made it biometric.
  func testARemoteThatChangedTheHeadersPolicyIsRefused() throws {
    // B's record as a release before 0.11.0 wrote it, in B's own file.
    let (victim, victimKey) = try pair.open(pair.b, pin: SyncPair.pinB)
    var old = victim.header
    var record = try XCTUnwrap(victim.localDevice)
    record.policy = nil
    old.setDevice(record)
    try victim.writeHeader(old, masterKey: victimKey)

    let (vault, key) = try pair.openA()
    var header = vault.header
    header.policy = .pinAndBiometry
    var own = try XCTUnwrap(vault.localDevice)
    own.policy = .pinOnly
    header.setDevice(own)
    try vault.writeHeader(header, masterKey: key)
    XCTAssertEqual(pair.syncA().status, 0)

    pair.assertSyncBRefused(
      "it changed the policy the vault's new devices start with (whoever holds the master key"
        + " can; no command does)")
    XCTAssertEqual(getWithPINAlone(pair.b, pin: SyncPair.pinB).stdoutText, "hunter2")
    XCTAssertEqual(pair.b.statusJSON()["policy"] as? String, "pin")
  }

  /// Attack review: a rotation link planted in the header outside a rotation was taken, and
  /// at the next rotation every other device walked it first and was locked out of the new key.
  func testARotationLinkAddedOutsideARotationIsRefused() throws {
    let (vault, key) = try pair.openA()
    var header = vault.header
    let random = { [UInt8](repeating: $0, count: 32).base64 }
    header.handoffs = [
      KeyHandoff(
        deviceID: try XCTUnwrap(vault.localDevice).deviceID,
        previous: KeyHandoff.commitment(key, vaultID: vault.vaultID).base64, next: random(7),
        writerKey: random(8), signature: [UInt8](repeating: 9, count: 64).base64,
        enrollmentKey: random(10), authorization: nil)
    ]
    try vault.writeHeader(header, masterKey: key)
    XCTAssertEqual(pair.syncA().status, 0)
    pair.assertSyncBRefused(
      "it changed the vault's rotation links outside a rotation (whoever holds the master key"
        + " can; only a rotation does)")
  }
}
