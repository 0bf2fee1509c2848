import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// A master-key rotation over sync through the built binaries (`vault(5)` Taking a rotation):
/// `vault sync revoke --rekey` on one device, the others taking the new key at their next sync
/// with their PIN, nothing made meanwhile lost, and a forged or broken rotation refused.
final class SyncRotationCLITests: XCTestCase {
  var pair: SyncPair!
  /// A third device, the one revoked.
  var c: Sandbox!
  static let pinC = "246801"

  override func setUpWithError() throws {
    try TestTier.requireSystem("real git")
    pair = SyncPair()
    c = Sandbox()
  }

  override func tearDown() {
    pair = nil
    c = nil
  }

  /// A, B and C share one vault through the remote; returns their device ids.
  private func threeDevices() -> [String] {
    pair.initA()
    pair.add(pair.a, "mail/work", Array("hunter2".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    let folder = (c.vaultPath as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let cloned = c.vault(["sync", "clone", pair.remote], pin: [pair.recoveryCode, Self.pinC])
    XCTAssertEqual(cloned.status, 0, cloned.stderrText)
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.syncB().status, 0)
    return devices(pair.a)
  }

  /// The ids `vault sync devices --json` lists on `box` (with the sandbox PIN), revoked ones
  /// included, in its order.
  private func devices(_ box: Sandbox) -> [String] {
    let listed = pair.read(box, ["sync", "devices", "--json"])
    let json = (try? JSONSerialization.jsonObject(with: Data(listed.stdout))) as? [[String: Any]]
    return (json ?? []).compactMap { $0["device"] as? String }
  }

  /// `vault sync revoke DEVICE --rekey` on A under a pty: the PIN, then the new recovery code
  /// typed back.
  private func revokeWithRekey(_ device: String) throws -> TerminalTests.Run {
    let script = [
      "expect PIN: ", "send \(Sandbox.pin)\\r",
      "expect Recovery code in force (it authorizes the revocation and the rotation): ",
      "send \(pair.recoveryCode)\\r",
      "expect Type the new recovery code back: ", "sendre \(RekeyCLITests.shownCode)",
    ]
    let result = Subprocess.run(
      "/usr/bin/env",
      [
        "python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/vault", "sync", "revoke",
        "--rekey", device,
      ],
      environment: pair.a.environment, stdin: Array((script.joined(separator: "\n") + "\n").utf8))
    XCTAssertEqual(result.status, 0, result.stderrText)
    return try JSONDecoder().decode(TerminalTests.Run.self, from: Data(result.stdout))
  }

  func testRevokeWithRekeyShutsTheDeviceOutAndTheOthersTakeTheNewKey() throws {
    let ids = threeDevices()
    XCTAssertEqual(ids.count, 3)
    let cID = String(ids[2].prefix(8))
    // B makes changes before it sees the rotation: they must survive it.
    pair.add(pair.b, "offline/b", Array("made on b".utf8))
    pair.add(pair.b, "mail/work", Array("hunter3".utf8))
    let token = pair.b.vault(["unlock", "--raw"], pin: [SyncPair.pinB]).stdoutText
      .trimmingCharacters(in: .newlines)

    let run = try revokeWithRekey(cID)
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(
      run.output.contains("Revoked the device \(cID): its PIN keyslot and writer key are gone."),
      run.output)
    XCTAssertTrue(run.output.contains("Rotated the master key: "), run.output)
    XCTAssertTrue(
      run.output.contains(
        "Pushed the rotation to \(pair.remote) (commit \(pair.head.prefix(12))): each other"
          + " device takes the new key at its next 'vault sync', with its PIN."), run.output)
    pair.add(pair.a, "after/rotation", Array("only the new key reads this".utf8))
    XCTAssertEqual(pair.syncA().status, 0)

    // B syncs with its session: the old key cannot open the new one's box, the PIN can.
    let taken = pair.b.vault(["sync"], pin: [SyncPair.pinB], env: ["VAULT_SESSION": token])
    XCTAssertEqual(taken.status, 0, taken.stderrText)
    XCTAssertEqual(
      taken.errorLines.first,
      "The vault's master key was rotated on another device (by device"
        + " \(ids[0].prefix(8))); this device takes the new key with its PIN.")
    XCTAssertTrue(
      taken.errorLines.contains(
        "Took the vault's new master key from the remote; every session of this vault was"
          + " revoked (run 'vault unlock' again)."), taken.stderrText)
    // A only sealed mail/work again: B's edit is a change of one side, not a conflict.
    XCTAssertFalse(taken.stderrText.contains("conflict"), taken.stderrText)
    XCTAssertEqual(
      taken.errorLines.last?.hasPrefix("Synced with \(pair.remote): 2 records received, "), true,
      taken.stderrText)
    XCTAssertEqual(pair.b.vault(["get", "mail/work"], env: ["VAULT_SESSION": token]).status, 10)
    XCTAssertEqual(
      pair.read(pair.b, ["get", "after/rotation"]).stdoutText, "only the new key reads this")
    XCTAssertEqual(pair.read(pair.b, ["get", "offline/b"]).stdoutText, "made on b")
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter3")
    XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0)

    // A gets what B made before it saw the rotation; both end in the same state.
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.read(pair.a, ["get", "offline/b"]).stdoutText, "made on b")
    XCTAssertEqual(pair.read(pair.a, ["get", "mail/work"]).stdoutText, "hunter3")
    XCTAssertEqual(
      pair.read(pair.a, ["get", "mail/work", "--revision", "1"]).stdoutText, "hunter2")
    XCTAssertEqual(pair.read(pair.a, ["check"]).status, 0)
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertEqual(
      pair.read(pair.a, ["list"]).stdoutText, pair.read(pair.b, ["list"]).stdoutText)
    XCTAssertEqual(pair.read(pair.a, ["list"]).stdoutText, "after/rotation\nmail/work\noffline/b\n")
    let again = pair.syncB()
    XCTAssertTrue(again.stderrText.hasPrefix("Up to date"), again.stderrText)

    // C, revoked and with the old key, is refused and reads nothing written since.
    let refused = c.vault(["sync"], pin: [Self.pinC])
    XCTAssertEqual(refused.status, 17, refused.stderrText)
    XCTAssertEqual(c.vault(["get", "after/rotation"], pin: [Self.pinC]).status, 3)
  }

  /// C's vault opened with its PIN, as a modified client that holds the master key opens it.
  private func openC() throws -> (vault: Vault, key: SymmetricKey) {
    let vault = try Vault.open(
      path: c.vaultPath, environment: VaultEnvironment(variables: c.environment))
    let key = try vault.unlock(pin: PIN(utf8: SecureBytes(copying: Array(Self.pinC.utf8))))
    try vault.verifyState(masterKey: key)
    return (vault, key)
  }

  /// Attacker finding (revocation review): a record dropped without a revocation is kept.
  ///
  /// C, which holds the master key and not the code, pushed a header without B's record and no
  /// revocation; A took it, and its rotation then sealed B no key. A record leaves a header only
  /// by a revocation: A keeps B's, and B takes A's rotation.
  func testADeviceRecordDroppedWithoutARevocationIsKept() throws {
    let ids = threeDevices()
    let (bID, cID) = (ids[1], String(ids[2].prefix(8)))
    let (vault, key) = try openC()
    var header = vault.header
    header.devices.removeAll { $0.deviceIDBytes.hex == bID }
    try vault.writeHeader(header, masterKey: key)
    XCTAssertEqual(c.vault(["sync"], pin: [Self.pinC]).status, 0)
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(devices(pair.a).sorted(), ids.sorted())
    let run = try revokeWithRekey(cID)
    XCTAssertEqual(run.status, 0, run.output)
    let taken = pair.syncB()
    XCTAssertEqual(taken.status, 0, taken.stderrText)
    XCTAssertTrue(taken.stderrText.contains("Took the vault's new master key"), taken.stderrText)
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
  }

  /// A rotated remote whose header dropped a device record without revoking it (C took A's
  /// rotation, then removed A's record under the new key) is refused by B as it takes the
  /// rotation: taking it would shut A out.
  func testARotationWhoseHeaderDroppedADeviceIsRefused() throws {
    let ids = threeDevices()
    let aID = String(ids[0].prefix(8))
    let (rotation, _) = try RekeyCLITests.rekey(pair.a, currentCode: pair.recoveryCode)
    XCTAssertEqual(rotation.status, 0, rotation.output)
    XCTAssertEqual(c.vault(["sync"], pin: [Self.pinC]).status, 0)
    let (vault, key) = try openC()
    var header = vault.header
    header.devices.removeAll { $0.deviceIDBytes.hex == ids[0] }
    try vault.writeHeader(header, masterKey: key)
    XCTAssertEqual(c.vault(["sync"], pin: [Self.pinC]).status, 0)
    pair.assertSyncBRefused(
      "its header dropped the device record \(aID) without a revocation (a device that held the"
        + " master key removed it)")
  }

  func testARotationWhoseLinkIsNotSignedIsRefusedAndChangesNothing() throws {
    let ids = threeDevices()
    let run = try revokeWithRekey(String(ids[2].prefix(8)))
    XCTAssertEqual(run.status, 0, run.output)
    pair.tamperRemote { work in
      let path = work + "/state"
      var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let marker = Array("\"signature\":\"".utf8)
      guard
        let at = (0..<(bytes.count - marker.count)).first(where: {
          Array(bytes[$0..<($0 + marker.count)]) == marker
        })
      else { return XCTFail("no signature in the state file's public part") }
      let index = at + marker.count
      bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
    pair.assertSyncBRefused("a rotation of the remote's master key is not signed")
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
  }

  /// A rotation pushes before it commits, after a sync: a change another device pushed since
  /// this one's last sync is merged first, never stranded under the old key.
  func testARotationMergesWhatAnotherDevicePushedFirst() throws {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    pair.add(pair.b, "pushed/by-b", Array("before the rotation".utf8))
    XCTAssertEqual(pair.syncB().status, 0)
    let (run, _) = try RekeyCLITests.rekey(pair.a, currentCode: pair.recoveryCode)
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(
      run.output.contains("Synced with \(pair.remote): 2 records received, 0 files sent"),
      run.output)
    XCTAssertEqual(pair.read(pair.a, ["get", "pushed/by-b"]).stdoutText, "before the rotation")
    let taken = pair.syncB()
    XCTAssertEqual(taken.status, 0, taken.stderrText)
    XCTAssertTrue(taken.stderrText.contains("Took the vault's new master key"), taken.stderrText)
    XCTAssertEqual(pair.read(pair.b, ["get", "pushed/by-b"]).stdoutText, "before the rotation")
    XCTAssertEqual(pair.syncA().stderrText.hasPrefix("Up to date"), true)
  }

  /// A rotation killed after its push and before its commit here: the remote has the new key,
  /// this device the old one, and its next sync takes the new key from its own push.
  func testARotationKilledAfterItsPushIsTakenBackByTheNextSync() throws {
    pair.initA()
    pair.add(pair.a, "mail/work", Array("hunter2".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    XCTAssertEqual(pair.syncA().status, 0)
    let before = pair.head
    let (run, code) = try RekeyCLITests.rekey(
      pair.a, env: ["VAULT_TEST_CRASH": "rekey-after-push"], currentCode: pair.recoveryCode)
    XCTAssertEqual(run.status, 137, run.output)
    XCTAssertNotEqual(pair.head, before, "the rotation was pushed")
    XCTAssertEqual(pair.read(pair.a, ["get", "mail/work"]).stdoutText, "hunter2", "old key here")
    let taken = pair.syncA()
    XCTAssertEqual(taken.status, 0, taken.stderrText)
    XCTAssertTrue(taken.stderrText.contains("Took the vault's new master key"), taken.stderrText)
    XCTAssertEqual(pair.read(pair.a, ["check"]).status, 0)
    XCTAssertEqual(pair.read(pair.a, ["get", "mail/work"]).stdoutText, "hunter2")
    // The code the killed command showed is the one in force.
    let recovered = pair.a.vault(["recover"], pin: [code, "864209"])
    XCTAssertEqual(recovered.status, 0, recovered.stderrText)
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
  }

  /// New-user review: a rotation killed after its push, taken back, then a second rotation:
  /// the other device walks both links (the writer key the first gave is made again).
  func testTwoRotationsTheFirstKilledAfterItsPushAreBothTaken() throws {
    pair.twoSynced()
    let (killed, inForce) = try RekeyCLITests.rekey(
      pair.a, env: ["VAULT_TEST_CRASH": "rekey-after-push"], currentCode: pair.recoveryCode)
    XCTAssertEqual(killed.status, 137, killed.output)
    XCTAssertEqual(pair.syncA().status, 0)
    let (second, _) = try RekeyCLITests.rekey(pair.a, currentCode: inForce)
    XCTAssertEqual(second.status, 0, second.output)
    let taken = pair.syncB()
    XCTAssertEqual(taken.status, 0, taken.stderrText)
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
    XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0)
  }

  /// New-user review: a new PIN on a device that has not synced since keeps its key pair, so a
  /// rotation made elsewhere meanwhile still opens there.
  func testANewPINBeforeTheRotationIsSeenKeepsTheDeviceInStep() throws {
    pair.twoSynced()
    XCTAssertEqual(pair.b.vault(["passwd"], pin: [SyncPair.pinB, "777777"]).status, 0)
    let (run, _) = try RekeyCLITests.rekey(pair.a, currentCode: pair.recoveryCode)
    XCTAssertEqual(run.status, 0, run.output)
    let taken = pair.b.vault(["sync"], pin: ["777777"])
    XCTAssertEqual(taken.status, 0, taken.stderrText)
    XCTAssertEqual(pair.b.vault(["get", "mail/work"], pin: ["777777"]).stdoutText, "hunter2")
  }

  /// New-user review: rotating, or revoking, while another device's rotation waits on the
  /// remote takes that rotation first and stops before a recovery code is shown; run again, it
  /// rotates on top of it.
  func testARotationWaitingOnTheRemoteIsTakenBeforeAnotherIsMade() throws {
    pair.twoSynced()
    let (first, inForce) = try RekeyCLITests.rekey(pair.a, currentCode: pair.recoveryCode)
    XCTAssertEqual(first.status, 0, first.output)
    let pinB = ["expect PIN: ", "send \(SyncPair.pinB)\r"]
    let stopped = Subprocess.run(
      "/usr/bin/env",
      ["python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/vault", "rekey"],
      environment: pair.b.environment, stdin: Array((pinB.joined(separator: "\n") + "\n").utf8))
    let run = try JSONDecoder().decode(TerminalTests.Run.self, from: Data(stopped.stdout))
    XCTAssertEqual(run.status, 18, run.output)
    XCTAssertTrue(run.output.contains("Took the vault's new master key"), run.output)
    XCTAssertFalse(run.output.contains("New recovery code"), run.output)
    XCTAssertTrue(
      run.output.contains(
        "vault: error: another device rotated the master key, and this device has just taken"
          + " the new key; nothing else was changed: run the command again to rotate it once"
          + " more"), run.output)
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
    // A revokes B after B rotated once more, before A took it: A takes it first.
    let script = [
      "expect PIN: ", "send \(SyncPair.pinB)\r",
      "expect Recovery code in force", "send \(inForce)\r",
      "expect Type the new recovery code back: ", "sendre \(RekeyCLITests.shownCode)",
    ]
    let again = Subprocess.run(
      "/usr/bin/env",
      ["python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/vault", "rekey"],
      environment: pair.b.environment, stdin: Array((script.joined(separator: "\n") + "\n").utf8))
    let rotatedB = try JSONDecoder().decode(TerminalTests.Run.self, from: Data(again.stdout))
    XCTAssertEqual(rotatedB.status, 0, rotatedB.output)
    let codeB = try XCTUnwrap(
      rotatedB.output.range(of: RekeyCLITests.shownCode, options: .regularExpression).map {
        String(rotatedB.output[$0])
      })
    let listed = pair.read(pair.a, ["sync", "devices", "--json"])
    let ids =
      ((try? JSONSerialization.jsonObject(with: Data(listed.stdout))) as? [[String: Any]] ?? [])
      .compactMap { $0["device"] as? String }
    let revoked = pair.revoke(pair.a, [String(ids[1].prefix(8))], code: codeB)
    XCTAssertEqual(revoked.status, 18, revoked.stderrText)
    XCTAssertTrue(revoked.stderrText.contains("Took the vault's new master key"))
    let done = pair.revoke(pair.a, [String(ids[1].prefix(8))], code: codeB)
    XCTAssertEqual(done.status, 0, done.stderrText)
    XCTAssertEqual(pair.syncB().status, 17)
    XCTAssertEqual(pair.read(pair.a, ["check"]).status, 0)
  }

  /// A revocation made on B and not pushed (its sync killed) when A rotates: B's revocation,
  /// signed with the old code, does not verify under the new one, so taking the rotation does
  /// not carry it and says so; made again with the new code, it reaches the vault.
  func testARevocationNotPublishedBeforeARotationIsReportedAndMadeAgain() throws {
    let ids = threeDevices()
    let (aID, cID) = (String(ids[0].prefix(8)), String(ids[2].prefix(8)))
    let killed = pair.revoke(
      pair.b, [cID], pin: SyncPair.pinB, env: ["VAULT_TEST_CRASH": "sync-after-merge"])
    XCTAssertEqual(killed.status, 137, killed.stderrText)
    XCTAssertTrue(pair.read(pair.b, ["sync", "devices"]).stdoutText.contains("\(cID)  revoked\n"))
    let (rotation, newCode) = try RekeyCLITests.rekey(pair.a, currentCode: pair.recoveryCode)
    XCTAssertEqual(rotation.status, 0, rotation.output)

    let taken = pair.syncB()
    XCTAssertEqual(taken.status, 0, taken.stderrText)
    XCTAssertTrue(
      taken.errorLines.contains(
        "vault: note: the revocation of device \(cID) made here before the rotation by device"
          + " \(aID) did not reach the vault: revoke it again ('vault sync revoke \(cID)')"),
      taken.stderrText)
    XCTAssertFalse(pair.read(pair.b, ["sync", "devices"]).stdoutText.contains("revoked"))
    let old = pair.revoke(pair.b, [cID], pin: SyncPair.pinB)
    XCTAssertEqual(old.status, 11, old.stderrText)
    let again = pair.revoke(pair.b, [cID], pin: SyncPair.pinB, code: newCode)
    XCTAssertEqual(again.status, 0, again.stderrText)
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertTrue(pair.read(pair.a, ["sync", "devices"]).stdoutText.contains("\(cID)  revoked\n"))
    let shut = c.vault(["sync"], pin: [Self.pinC])
    XCTAssertEqual(shut.status, 17, shut.stderrText)
    XCTAssertEqual(
      shut.errorLines.last,
      "vault: error: the sync remote was refused: the remote's new master key is sealed to no"
        + " key of this device (another device revoked it, or its PIN was set anew with 'vault"
        + " recover' since its last sync); join again with 'vault sync clone' into a new vault"
        + " file; nothing was merged")
  }

  func testAPlainRekeyReachesTheOtherDeviceWithoutARevocation() throws {
    pair.initA()
    pair.add(pair.a, "mail/work", Array("hunter2".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    XCTAssertEqual(pair.syncA().status, 0)
    let (run, _) = try RekeyCLITests.rekey(pair.a, currentCode: pair.recoveryCode)
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertEqual(pair.syncA().status, 0)
    let taken = pair.syncB()
    XCTAssertEqual(taken.status, 0, taken.stderrText)
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
    pair.add(pair.b, "from/b", Array("b".utf8))
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.read(pair.a, ["get", "from/b"]).stdoutText, "b")
    XCTAssertEqual(pair.read(pair.a, ["check"]).status, 0)
    XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0)
  }
}
