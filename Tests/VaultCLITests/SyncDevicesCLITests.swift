import Foundation
import VaultFormat
import VaultTestSupport
import XCTest

/// `vault sync devices` and `vault sync revoke` through the built binaries, on two devices and
/// a bare repository on local disk.
final class SyncDevicesCLITests: XCTestCase {
  var pair: SyncPair!
  override func setUpWithError() throws {
    try TestTier.requireSystem("real git")
    pair = SyncPair()
  }
  override func tearDown() { pair = nil }

  /// The devices as `vault sync devices --json` lists them on `box`.
  private func devices(_ box: Sandbox, file: StaticString = #filePath, line: UInt = #line)
    -> [[String: Any]]
  {
    let listed = pair.read(box, ["sync", "devices", "--json"])
    XCTAssertEqual(listed.status, 0, listed.stderrText, file: file, line: line)
    return (try? JSONSerialization.jsonObject(with: Data(listed.stdout))) as? [[String: Any]] ?? []
  }

  private func twoDevices() -> (a: String, b: String) {
    pair.initA()
    pair.add(pair.a, "mail/work", Array("hunter2".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    XCTAssertEqual(pair.syncA().status, 0)
    let listed = devices(pair.a)
    let own = listed.first { $0["this"] as? Bool == true }?["device"] as? String ?? ""
    let other = listed.first { $0["this"] as? Bool == false }?["device"] as? String ?? ""
    return (own, other)
  }

  func testDevicesListsEachDeviceWithItsCommits() {
    let (a, b) = twoDevices()
    XCTAssertEqual(a.count, 32)
    XCTAssertEqual(b.count, 32)
    let text = pair.read(pair.a, ["sync", "devices"])
    XCTAssertEqual(text.status, 0, text.stderrText)
    // A pushed its first commit; B pushed one when it joined; A's last sync pushed nothing.
    XCTAssertEqual(
      text.stdoutText,
      "\(a.prefix(8))  off       1 commit  (this device)\n\(b.prefix(8))  off       1 commit\n")
    let json = devices(pair.b)
    XCTAssertEqual(json.count, 2)
    XCTAssertEqual(json.map { $0["device"] as? String }, [a, b])
    XCTAssertEqual(json.map { $0["this"] as? Bool }, [false, true])
    XCTAssertEqual(json.map { $0["revoked"] as? Bool }, [false, false])
    XCTAssertEqual(json.map { $0["commits"] as? Int }, [1, 1])
  }

  /// Review of 0.12.0 as a new user: while the agent held the vault, `vault sync devices` (and
  /// `vault sync init`) exited 10, "locked: no valid session and no terminal to ask on", though
  /// `vault sync` ran; each command that takes a session's key runs through the agent.
  func testSyncInitAndDevicesRunThroughTheAgent() throws {
    pair.initA()
    let unlocked = pair.a.vaultPIN(["unlock"])
    XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    let joined = pair.a.vault(["sync", "init", pair.remote])
    XCTAssertEqual(joined.status, 0, joined.stderrText)
    let json = pair.a.vault(["sync", "devices", "--json"])
    XCTAssertEqual(json.status, 0, json.stderrText)
    let listed = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [[String: Any]])
    let own = try XCTUnwrap(listed.first?["device"] as? String)
    let text = pair.a.vault(["sync", "devices"])
    XCTAssertEqual(text.status, 0, text.stderrText)
    XCTAssertEqual(text.stdoutText, "\(own.prefix(8))  off       1 commit  (this device)\n")
    XCTAssertEqual(pair.a.vault(["lock"]).status, 0)
  }

  func testARevokedDeviceIsGoneEverywhereAndItsSyncIsRefused() {
    let (a, b) = twoDevices()
    pair.add(pair.b, "late", Array("from b".utf8))
    let revoked = pair.revoke(pair.a, [String(b.prefix(6)).uppercased()])
    XCTAssertEqual(revoked.status, 0, revoked.stderrText)
    XCTAssertEqual(
      revoked.errorLines.filter { $0.hasPrefix("Revoked") },
      ["Revoked the device \(b.prefix(8)): its PIN keyslot and writer key are gone."])
    // New-user review: a plain revocation says what it leaves the device and what shuts it out.
    XCTAssertEqual(
      revoked.errorLines.filter { $0.hasPrefix("It still holds") },
      [
        "It still holds the master key and can read what it synced: 'vault rekey' rotates the key"
          + " (a new recovery code), after which its copy reads nothing written later."
      ])
    XCTAssertEqual(
      pair.read(pair.a, ["sync", "devices"]).stdoutText,
      "\(a.prefix(8))  off       2 commits  (this device)\n\(b.prefix(8))  revoked\n")

    let before = pair.head
    let refused = pair.syncB()
    XCTAssertEqual(refused.status, 17, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines.first,
      "vault: error: the sync remote was refused: another device revoked this one"
        + " (\(b.prefix(8))) from the vault; nothing was merged")
    XCTAssertEqual(pair.head, before, "B pushed nothing")
    XCTAssertEqual(pair.read(pair.b, ["get", "late"]).stdoutText, "from b", "B keeps its vault")
    // A third copy of B's header from before the revocation never brings B's record back: a
    // sync on A of the same remote keeps it out.
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(devices(pair.a).compactMap { $0["revoked"] as? Bool }, [false, true])
  }

  /// A change of the header alone (a new PIN here) is a change to sync: its state file is
  /// pushed, and the other device takes the new record.
  func testAHeaderOnlyChangeIsPushed() {
    let (_, b) = twoDevices()
    let passwd = pair.b.vault(["passwd"], pin: [SyncPair.pinB, "246800"])
    XCTAssertEqual(passwd.status, 0, passwd.stderrText)
    let pushed = pair.b.vault(["sync"], pin: ["246800"])
    XCTAssertEqual(pushed.status, 0, pushed.stderrText)
    XCTAssertEqual(
      pushed.errorLines.last,
      "Synced with \(pair.remote): 0 records received, 1 file sent (commit"
        + " \(pair.head.prefix(12))).")
    let taken = pair.syncA()
    XCTAssertEqual(taken.status, 0, taken.stderrText)
    XCTAssertEqual(
      taken.errorLines.last,
      "Synced with \(pair.remote): 0 records received, 0 files sent, the vault's header (its"
        + " devices) updated (commit \(pair.head.prefix(12))).")
    XCTAssertEqual(
      devices(pair.a).first { $0["device"] as? String == b }?["commits"] as? Int, 2)
    let again = pair.b.vault(["sync"], pin: ["246800"])
    XCTAssertEqual(again.errorLines.last?.hasPrefix("Up to date with"), true, again.stderrText)
  }

  func testRevokeRefusesBadNamesThisDeviceAndASession() {
    let (a, b) = twoDevices()
    for (name, message) in [
      ("12", "DEVICE is 4 to 32 hex digits of a device id, as 'vault sync devices' shows it"),
      ("xyzw", "DEVICE is 4 to 32 hex digits of a device id, as 'vault sync devices' shows it"),
      (
        "0000" == a.prefix(4) || "0000" == b.prefix(4) ? "ffff" : "0000",
        "no device of this vault has an id that starts with"
          + " \("0000" == a.prefix(4) || "0000" == b.prefix(4) ? "ffff" : "0000");"
          + " 'vault sync devices' lists them"
      ),
      (
        String(a.prefix(8)),
        "this is the device you are on; revoke it from another device, or delete its vault file"
      ),
    ] {
      // Refused before the PIN (new-user review: this device's own was refused after the PIN
      // and a match): no PIN is given here, and none is asked.
      let refused = pair.a.vault(["sync", "revoke", name])
      XCTAssertEqual(refused.status, 5, refused.stderrText)
      XCTAssertEqual(refused.errorLines, ["vault: error: " + message], name)
    }
    let token = pair.a.vault(["unlock", "--raw"], pin: [Sandbox.pin]).stdoutText
      .trimmingCharacters(in: .newlines)
    let session = pair.a.vault(
      ["sync", "revoke", String(b.prefix(8))], env: ["VAULT_SESSION": token])
    XCTAssertEqual(session.status, 10, session.stderrText)
    XCTAssertEqual(devices(pair.a).count, 2, "nothing revoked")
    XCTAssertEqual(pair.revoke(pair.a, [String(b.prefix(8))]).status, 0)
    let again = pair.syncA(["sync", "revoke", String(b.prefix(8))])
    XCTAssertEqual(again.status, 5)
    XCTAssertEqual(
      again.errorLines.first, "vault: error: the device \(b.prefix(8)) was revoked already")
    let rekey = pair.syncA(["sync", "revoke", "--rekey", String(b.prefix(8))])
    XCTAssertEqual(rekey.status, 5)
    XCTAssertEqual(
      rekey.errorLines.first,
      "vault: error: the device \(b.prefix(8)) was revoked already; 'vault rekey' rotates the"
        + " master key")
  }
}
