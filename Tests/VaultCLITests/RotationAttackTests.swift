import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultJournal
@testable import VaultSecrets

/// Attacks on the master-key rotation, through the built binary: a file rebuilt under a key the
/// attacker sealed to this device (anyone can: the device's public key is in the header), with
/// or without a forged rotation record, is refused; a refused unlock adopts nothing of the
/// forged header; another device that saw an older state follows a rotation.
final class RotationAttackTests: XCTestCase {
  var box: Sandbox!

  override func setUp() {
    box = Sandbox()
    box.initPINOnly()
    XCTAssertEqual(box.vaultPIN(["add", "a1"], stdin: Array("one".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["add", "a2"], stdin: Array("two".utf8)).status, 0)
  }

  override func tearDown() { box = nil }

  /// Rebuilds the vault as an attacker holding no key: a master key of their own sealed to
  /// every device's public key, a header MAC and a journal key pair under it, no records, and
  /// one state whose `previous` is the newest stored MAC; with `fakeRotation`, also a rotation
  /// record that seals a made-up earlier key under the attacker's key.
  func forge(fakeRotation: Bool) throws {
    box.tamper { file in
      var header = try Header.parse(try file.headerBody())
      let key = SymmetricKey.random()
      let vaultID = header.vaultID
      header.devices = try header.devices.map { device in
        var forged = device
        let plain = SecureBytes(
          concatenating: DeviceRecord.masterPlaintextPrefix(
            vaultID: vaultID, deviceID: device.deviceIDBytes), key.bytes)
        let publicKey = try [UInt8](base64: device.publicKey, count: 32, field: "public_key")
        forged.masterBox = plain.withBytes { SealedBox.seal($0, to: publicKey) }.base64
        return forged
      }
      let journal = SealedBox.keyPair()
      header.journalPublicKey = journal.publicKey.base64
      header.journalSecretKey =
        JournalStore.sealSecretKey(journal.secretKey, masterKey: key, vaultID: vaultID).base64
      let newest = try file.execute(
        "SELECT generation, mac FROM states ORDER BY generation DESC LIMIT 1")[0]
      guard case .integer(let generation) = newest[0], case .blob(let mac) = newest[1] else {
        return XCTFail("no state")
      }
      if fakeRotation {
        let made = SymmetricKey.random()
        let sealed = made.bytes.withBytes {
          AEAD.seal(
            $0, key: key.derive(.rotation),
            associatedData: KeyRotation.associatedData(
              vaultID: vaultID, generation: generation + 1))
        }
        header.rotations = [KeyRotation(generation: generation + 1, previousKey: sealed.base64)]
      }
      let body = try header.encoded()
      try file.execute(
        "UPDATE header SET body = ?, mac = ?",
        [.blob(body), .blob(Header.mac(body, masterKey: key))])
      for table in ["records", "chunks", "pending", "states"] {
        try file.execute("DELETE FROM \(table)")
      }
      let zeros = [UInt8](repeating: 0, count: 32)
      try file.execute(
        "UPDATE aggregate SET buckets = ?, chunks = ?",
        [.blob([UInt8](repeating: 0, count: 256 * 32)), .blob(zeros)])
      let summary = StateLink.summary(
        headerDigest: Header.digest(body), buckets: [UInt8](repeating: 0, count: 256 * 32),
        chunks: zeros)
      let previous = StateLink(generation: generation, previous: [], summary: [], mac: mac)
      let link = StateLink.next(
        after: previous, summary: summary, key: key.derive(.state), vaultID: vaultID)
      try file.execute(
        "INSERT INTO states (generation, previous, summary, mac) VALUES (?, ?, ?, ?)",
        [.integer(link.generation), .blob(link.previous), .blob(link.summary), .blob(link.mac)])
    }
  }

  func journalKeys() throws -> String {
    let data = try Data(
      contentsOf: URL(fileURLWithPath: box.folder.environment().stateDirectory + "/device.json"))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return "\(object?["journal_keys"] ?? "none")"
  }

  func testAFileRebuiltUnderAKeyTheAttackerSealedIsRefused() throws {
    let before = try journalKeys()
    try forge(fakeRotation: false)
    for command in [["list"], ["check"], ["get", "a1"]] {
      let refused = box.vaultPIN(command)
      XCTAssertEqual(refused.status, 17, "\(command): \(refused.stderrText)")
      XCTAssertEqual(refused.stdout, [])
    }
    let add = box.vaultPIN(["add", "bank"], stdin: Array("new-password".utf8))
    XCTAssertEqual(add.status, 17)
    // The refused unlocks adopted nothing of the forged header: the journal still seals to the
    // key this device authenticated, so it refuses the forged file's key.
    XCTAssertEqual(try journalKeys(), before)
    XCTAssertEqual(box.vault(["journal"], stdin: Array("private\n".utf8)).status, 17)
  }

  /// The master box is outside the slot tag (a rotation on another device re-seals it): an
  /// edited one fails after the right PIN, as an integrity failure that never counts as a wrong
  /// PIN, so writing the file alone cannot lock the owner out.
  func testAnEditedMasterBoxIsAnIntegrityFailureNotAWrongPIN() throws {
    box.editHeader { header in
      var devices = header["devices"] as? [[String: Any]] ?? []
      devices[0]["master_box"] = Data(SecureBytes.random(count: 131).unprotectedBytes)
        .base64EncodedString()
      header["devices"] = devices
    }
    for _ in 1...7 {
      let refused = box.vaultPIN(["list"])
      XCTAssertEqual(refused.status, 17, refused.stderrText)
      XCTAssertEqual(
        refused.errorLines.first,
        "vault: error: integrity failure: the master key sealed to this device does not open (the"
          + " vault header's master_box was edited)")
    }
    let pin = box.statusJSON()["pin"] as? [String: Any]
    XCTAssertEqual(pin?["consecutive_failures"] as? Int, 0)
    XCTAssertEqual(pin?["delay_seconds"] as? Int, 0)
  }

  func testAForgedRotationRecordDoesNotHelp() throws {
    try forge(fakeRotation: true)
    XCTAssertEqual(box.vaultPIN(["list"]).status, 17)
    XCTAssertEqual(box.vaultPIN(["check"]).status, 17)
  }

  /// Device B last saw an older state; device A writes, then rotates the key: B follows the
  /// chain back through the rotation record to the state it saw.
  func testADeviceThatSawAnOlderStateFollowsARotation() throws {
    let code = try XCTUnwrap(recoveryCodeOfThisVault())
    let other = ["XDG_STATE_HOME": box.home + "/stateB"]
    XCTAssertEqual(box.vault(["recover"], pin: [code, "975310"], env: other).status, 0)
    XCTAssertEqual(box.vault(["list"], pin: ["975310"], env: other).status, 0)
    XCTAssertEqual(box.vaultPIN(["add", "e4"], stdin: Array("four".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["add", "e5"], stdin: Array("five".utf8)).status, 0)
    // Two devices share the file: the rotation the other takes needs the code in force.
    let rotated = try RekeyCLITests.rekey(box, currentCode: code)
    XCTAssertEqual(rotated.run.status, 0, rotated.run.output)
    let listed = box.vault(["list"], pin: ["975310"], env: other)
    XCTAssertEqual(listed.status, 0, listed.stderrText)
    XCTAssertEqual(listed.stdoutText, "a1\na2\ne4\ne5\n")
    XCTAssertEqual(box.vault(["check"], pin: ["975310"], env: other).status, 0)
  }

  func testAJunkPendingRowDoesNotBlockARotation() throws {
    box.tamper { file in
      try file.execute(
        "INSERT INTO pending (record_id, box) VALUES (?, ?)",
        [
          .blob(SecureBytes.random(count: 16).unprotectedBytes),
          .blob(SecureBytes.random(count: 100).unprotectedBytes),
        ])
    }
    XCTAssertEqual(box.vaultPIN(["check"]).status, 17)
    let rotated = try RekeyCLITests.rekey(box)
    XCTAssertEqual(rotated.run.status, 0, rotated.run.output)
    XCTAssertTrue(
      rotated.run.output.contains(
        "Dropped 1 pending journal row that no journal key opens (unreadable by anyone)."),
      rotated.run.output)
    XCTAssertEqual(box.vaultPIN(["check"]).status, 0)
  }

  /// The recovery code: this sandbox's vault is made again with the code captured.
  private func recoveryCodeOfThisVault() throws -> String? {
    try FileManager.default.removeItem(atPath: box.vaultPath)
    let created = box.vault(["init", "--kdf", "test", "--no-biometry"], pin: [Sandbox.pin])
    XCTAssertEqual(created.status, 0, created.stderrText)
    XCTAssertEqual(box.vaultPIN(["add", "a1"], stdin: Array("one".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["add", "a2"], stdin: Array("two".utf8)).status, 0)
    return created.stderrText.range(of: RekeyCLITests.shownCode, options: .regularExpression).map {
      String(created.stderrText[$0])
    }
  }
}
