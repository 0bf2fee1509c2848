import Foundation
import VaultCore
import XCTest

@testable import VaultCLI
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// The attacks of issue "Format 2" on a vault file an attacker can write, each shown first to
/// change the file and then refused with exit 17 (or 18), nothing decrypted into wrong data.
final class StateAttackTests: XCTestCase {
  var box: Sandbox!

  override func setUp() {
    box = Sandbox()
    box.initPINOnly()
  }
  override func tearDown() { box = nil }

  func add(_ name: String, _ content: String, force: Bool = false) {
    let result = box.vaultPIN(
      ["add"] + (force ? ["--force"] : []) + [name], stdin: Array(content.utf8))
    XCTAssertEqual(result.status, 0, result.stderrText)
  }

  func copyOfTheFile() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: box.vaultPath)) }

  func putBack(_ data: Data) throws { try data.write(to: URL(fileURLWithPath: box.vaultPath)) }

  static let older =
    "vault: hint: if you restored a backup on purpose, run 'vault check --accept-older';"
    + " otherwise keep this file aside and restore your latest backup"
  static let records =
    "vault: error: integrity failure: the vault's records are not the ones its state"
    + " authenticates (a record was deleted, added or put back from an older copy)"

  func testAWholeFileRolledBackIsRefusedUntilAcceptedOnPurpose() throws {
    add("kept", "v1")
    add("removed", "gone soon")
    let backup = try copyOfTheFile()
    add("kept", "v2", force: true)
    add("new", "fresh")
    XCTAssertEqual(box.vaultPIN(["rm", "removed"]).status, 0)
    try putBack(backup)
    // The file now holds old contents, a removed entry and no new one: every read refuses it.
    for arguments in [["get", "kept"], ["get", "removed"], ["get", "new"], ["list"], ["check"]] {
      let result = box.vaultPIN(arguments)
      XCTAssertEqual(result.status, 17, "\(arguments): \(result.stderrText)")
      XCTAssertEqual(result.stdout, [], "\(arguments)")
      XCTAssertEqual(result.errorLines.last, Self.older, "\(arguments)")
    }
    XCTAssertTrue(
      box.vaultPIN(["get", "kept"]).errorLines.first?.hasPrefix(
        "vault: error: integrity failure: the vault file's state (generation 3, ") ?? false)
    XCTAssertTrue(
      box.vaultPIN(["get", "kept"]).errorLines.first?.contains(
        "is older than the one this device last saw (generation 6, ") ?? false)
    // Restoring a backup on purpose says so, with the PIN; then the backup is the vault.
    let accepted = box.vaultPIN(["check", "--accept-older"])
    XCTAssertEqual(accepted.status, 0, accepted.stderrText)
    XCTAssertEqual(
      accepted.errorLines,
      ["Accepted the vault's state at generation 3 (this device had seen generation 6)."])
    XCTAssertEqual(box.vaultPIN(["get", "kept"]).stdoutText, "v1")
    XCTAssertEqual(box.vaultPIN(["get", "removed"]).stdoutText, "gone soon")
  }

  func testARowRolledBackDeletedOrResurrectedIsRefused() throws {
    add("a", "first")
    add("b", "bravo")
    let old =
      box.tamper {
        try $0.execute("select record_id, lookup, kind, revision, box from records where kind = 1")
      } ?? []
    add("a", "second", force: true)
    // Row rollback: a's row and chunk put back as they were; each opens under the key.
    box.tamper {
      for row in old {
        _ = try $0.execute("insert or replace into records values (?, ?, ?, ?, ?)", row)
      }
    }
    let rolled = box.vaultPIN(["get", "a"])
    XCTAssertEqual(rolled.status, 17, rolled.stderrText)
    XCTAssertEqual(rolled.stdout, [])
    XCTAssertEqual(rolled.errorLines, [Self.records])
    XCTAssertEqual(box.vaultPIN(["check"]).status, 17)
  }

  func testADeletedEntryOrJournalRowIsAnIntegrityFailureNotAMissingOne() {
    add("a", "alpha")
    // The only entry row now is "a"'s (row order says nothing: rowids follow buckets).
    let recordID = box.tamper { try $0.blob("select record_id from records where kind = 1") }
    add("b", "bravo")
    XCTAssertEqual(box.vault(["journal"], stdin: Array("dear diary\n".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["journal", "list"]).status, 0, "folds the entry into the state")
    box.tamper {
      _ = try $0.execute("delete from records where record_id = ?", [.blob(recordID ?? [])])
      XCTAssertEqual(try $0.integer("select changes()"), 1)
    }
    // `get` of the deleted name verifies every bucket; another name reads right, from a bucket
    // that verifies; `list` and `check` verify them all.
    let deleted = box.vaultPIN(["get", "a"])
    XCTAssertEqual(deleted.status, 17, deleted.stderrText)
    XCTAssertEqual(deleted.errorLines, [Self.records])
    XCTAssertEqual(box.vaultPIN(["get", "b"]).stdoutText, "bravo")
    XCTAssertEqual(box.vaultPIN(["list"]).status, 17)
    XCTAssertEqual(box.vaultPIN(["check"]).status, 17)
    let other = Sandbox()
    other.initPINOnly()
    XCTAssertEqual(other.vault(["journal"], stdin: Array("dear diary\n".utf8)).status, 0)
    XCTAssertEqual(other.vaultPIN(["journal", "list"]).status, 0)
    other.tamper { _ = try $0.execute("delete from records where kind = 4") }
    let journal = other.vaultPIN(["journal", "list"])
    XCTAssertEqual(journal.status, 17, journal.stderrText)
    XCTAssertEqual(journal.errorLines, [Self.records])
    XCTAssertEqual(other.vaultPIN(["check"]).status, 17)
  }

  func testPlantedTriggersAreRefusedBeforeAnyWrite() {
    add("x", "stays?")
    for trigger in [
      "create trigger keep before delete on records begin select raise(ignore); end",
      "create trigger undo after update on header begin update header set body = old.body; end",
    ] {
      box.tamper { _ = try $0.execute(trigger) }
      for arguments in [["rm", "x"], ["passwd"]] {
        let result = box.vault(arguments, pin: [Sandbox.pin, "135790", "135790"])
        XCTAssertEqual(result.status, 17, "\(trigger) \(arguments): \(result.stderrText)")
        XCTAssertTrue(
          result.errorLines.first?.hasPrefix(
            "vault: error: integrity failure: the vault's schema was changed: trigger '") ?? false,
          result.stderrText)
      }
      box.tamper { _ = try $0.execute("drop trigger \(trigger.split(separator: " ")[2])") }
    }
    XCTAssertEqual(box.vaultPIN(["get", "x"]).stdoutText, "stays?")
  }

  func testAHeaderPutBackFromBeforeAPINChangeOrAnActivationIsRefused() {
    let before = box.tamper { try $0.execute("select body, mac from header") } ?? []
    let changed = box.vault(["passwd"], pin: [Sandbox.pin, "135790", "135790"])
    XCTAssertEqual(changed.status, 0, changed.stderrText)
    box.tamper { _ = try $0.execute("update header set body = ?, mac = ?", before.first ?? []) }
    // The old PIN opens the old slot, but the state covers the header: refused, not unlocked.
    let old = box.vault(["list"], pin: [Sandbox.pin])
    XCTAssertEqual(old.status, 17, old.stderrText)
    XCTAssertEqual(
      old.errorLines,
      [
        "vault: error: integrity failure: the vault's header or aggregate is not the one its state"
          + " authenticates (an older header or rows were put back)"
      ])

    let bio = Sandbox()
    bio.biosim(["enroll", "--label", "right-index"])
    bio.initPINOnly()
    let pinOnly = bio.tamper { try $0.execute("select body, mac from header") } ?? []
    bio.biosim(["next", "match"])
    XCTAssertEqual(bio.vaultPIN(["biometry", "activate"]).status, 0)
    bio.tamper { _ = try $0.execute("update header set body = ?, mac = ?", pinOnly.first ?? []) }
    let without = bio.vaultPIN(["list"])
    XCTAssertEqual(without.status, 17, "the biometric requirement cannot be removed")
  }

  func testACommandWaitingAtThePINPromptAcrossAPINChangeIsRefused() throws {
    // `vault unlock` reads the header, then waits for its PIN on a FIFO; meanwhile the PIN is
    // changed; then the old PIN arrives. It must not unlock, nor write the old slot back.
    let fifo = box.home + "/pin"
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", "exec \"$0\" unlock --raw --pin-fd 3 3<>\"$1\"", Sandbox.binDirectory + "/vault", fifo,
    ]
    process.environment = box.environment
    process.currentDirectoryURL = URL(fileURLWithPath: box.home)
    let errors = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    usleep(700_000)
    let passwd = box.vault(["passwd"], pin: [Sandbox.pin, "135790", "135790"])
    XCTAssertEqual(passwd.status, 0, passwd.stderrText)
    let writer = try XCTUnwrap(FileHandle(forWritingAtPath: fifo))
    try writer.write(contentsOf: Data((Sandbox.pin + "\n").utf8))
    process.waitUntilExit()
    try writer.close()
    XCTAssertEqual(process.terminationStatus, 18)
    XCTAssertEqual(
      String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
      "vault: error: the vault changed while the command ran: its header changed while the PIN"
        + " was asked for; run it again\n")
    XCTAssertEqual(box.vault(["list"], pin: [Sandbox.pin]).status, 11, "the old PIN stays dead")
    XCTAssertEqual(box.vault(["list"], pin: ["135790"]).status, 0)
  }

  func testRecoveryWithTheRightCodeOnAnEditedKDFIsAnIntegrityFailure() throws {
    let fresh = Sandbox()
    let made = fresh.vault(["init", "--kdf", "test", "--no-biometry"], pin: [Sandbox.pin])
    let code = try XCTUnwrap(made.errorLines.count > 2 ? made.errorLines[2] : nil)
    XCTAssertEqual(code.count, 44)
    fresh.editHeader {
      $0["kdf"] = ["profile": "interactive", "opslimit": 2, "memlimit": 67_108_864]
    }
    let result = fresh.vault(["recover"], pin: [String(code), "222200", "222200"])
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: integrity failure: the vault's recovery slot or KDF parameters were"
          + " edited (the recovery code is right)"
      ])
    let wrong = fresh.vault(["recover"], pin: ["0000-0000-0000-0000-0000-0000-0000-0000"])
    XCTAssertEqual(wrong.status, 11, wrong.stderrText)
  }

  func testTheJournalNeverSealsToAKeyAndIDSwappedIntoTheHeader() {
    box.editHeader {
      $0["vault_id"] = Data(repeating: 9, count: 16).base64EncodedString()
      $0["journal_public_key"] = Data(repeating: 1, count: 32).base64EncodedString()
    }
    let result = box.vault(["journal"], stdin: Array("to the attacker?\n".utf8))
    XCTAssertEqual(result.status, 10, result.stderrText)
    XCTAssertEqual(
      result.errorLines.first,
      "vault: error: this device has never unlocked this vault, so its journal key is not"
        + " trusted; nothing was written")
    XCTAssertEqual(box.tamper { try $0.integer("select count(*) from pending") }, 0)
  }

  func testABackDatedEntryFromAnyoneWithThePublicHeaderIsMarkedAndRefusedByCheck() throws {
    XCTAssertEqual(box.vault(["journal"], stdin: Array("real\n".utf8)).status, 0)
    let header =
      try JSONSerialization.jsonObject(
        with: Data(box.tamper { try $0.headerBody() } ?? [])) as? [String: Any] ?? [:]
    let device = (header["devices"] as? [[String: Any]])?.first ?? [:]
    let writerID = try XCTUnwrap(Data(base64Encoded: device["device_id"] as? String ?? ""))
    let vaultID = try VaultID(
      [UInt8](try XCTUnwrap(Data(base64Encoded: header["vault_id"] as? String ?? ""))))
    let publicKey = [UInt8](
      try XCTUnwrap(Data(base64Encoded: header["journal_public_key"] as? String ?? "")))
    // Signed as this device's writer, by a key that is not its writer key.
    let id = [UInt8](repeating: 0x0f, count: 16)
    let forged = try SignedJournalRecord(
      vaultID: vaultID, entryID: id, writerID: [UInt8](writerID), sequence: 2, revision: 1,
      stamp: JournalStamp.local(1_000_000_000), text: SecureBytes(copying: Array("planted".utf8)))
    let box = forged.encode(signingWith: Signing.generate()).withBytes {
      SealedBox.seal($0, to: publicKey)
    }
    self.box.tamper {
      _ = try $0.execute("insert into pending values (?, ?)", [.blob(id), .blob(box)])
    }
    let list = self.box.vaultPIN(["journal", "list"])
    XCTAssertEqual(list.status, 0, list.stderrText)
    XCTAssertFalse(list.stdoutText.contains("planted"))
    XCTAssertTrue(
      list.stdoutText.hasSuffix(
        "0f0f0f0f  (not verified: a journal entry's writer signature does not verify)\n"),
      list.stdoutText)
    let check = self.box.vaultPIN(["check"])
    XCTAssertEqual(check.status, 17)
    XCTAssertEqual(
      check.errorLines,
      [
        "vault: error: integrity failure: pending journal entry 0f0f0f0f is refused: a journal"
          + " entry's writer signature does not verify"
      ])
  }
}
