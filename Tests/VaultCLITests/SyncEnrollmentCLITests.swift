import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultJournal
@testable import VaultSecrets
@testable import VaultSync

/// `vault(5)` ENROLLMENT through the built binaries.
///
/// A device that holds the master key but not the recovery code can neither add a device the
/// others take nor hand them a key of its own. The attacking device is played in this process with the library, as a modified client
/// would; the attacked one runs `vault sync`.
final class SyncEnrollmentCLITests: XCTestCase {
  var pair: SyncPair!

  override func setUpWithError() throws {
    try TestTier.requireSystem("real git")
    pair = SyncPair()
  }
  override func tearDown() { pair = nil }

  private func openA() throws -> (vault: Vault, key: SymmetricKey) { try pair.openA() }

  /// Attacker finding F1: a phantom device record, MACed under the shared key, pushed by a
  /// device that holds it; the other device used to take it, and a later rotation sealed the
  /// new key to it.
  func testADeviceRecordTheCodeDidNotEnrollIsRefused() throws {
    pair.inStep()
    let (vault, key) = try openA()
    var header = vault.header
    var phantom = header.devices[0]
    phantom.deviceID = [UInt8](repeating: 0x5a, count: 16).base64
    phantom.deviceTag = [UInt8](repeating: 0x5b, count: 16).base64
    phantom.publicKey = SealedBox.keyPair().publicKey.base64
    header.devices.append(phantom)
    try vault.writeHeader(header, masterKey: key)
    XCTAssertEqual(pair.syncA().status, 0)

    pair.assertSyncBRefused(
      "the device record 5a5a5a5a was not enrolled"
        + " with the vault's recovery code (a device that held the master key added or changed"
        + " it)")
    // And the device that holds it cannot seal a rotation to it either.
    let (rotation, _) = try RekeyCLITests.rekey(pair.a, currentCode: pair.recoveryCode)
    XCTAssertEqual(rotation.status, 17, rotation.output)
    XCTAssertTrue(
      rotation.output.contains(
        "the device record 5a5a5a5a was not enrolled with the vault's recovery code"),
      rotation.output)
  }

  /// Attacker finding F2: a device that holds the old key (a revoked one, or one rolled back
  /// to before its revocation) makes a rotation of its own and pushes it: without the code it
  /// cannot authorize the link, and the other device refuses it.
  func testARotationNotAuthorizedWithTheCodeIsRefused() throws {
    pair.inStep()
    let (vault, key) = try openA()
    // The modified client drops the enrollments (no code is asked then) and rotates.
    var header = vault.header
    header.recovery.enrollmentKey = nil
    for index in header.devices.indices { header.devices[index].enrollment = nil }
    try vault.writeHeader(header, masterKey: key)
    let repository = try GitRepository(
      path: GitRepository.path(forVault: pair.a.vaultPath),
      environment: VaultEnvironment(variables: pair.a.environment))
    let rotated = try vault.rekey(
      masterKey: key, recoveryCode: RecoveryCode.generate(),
      publisher: SyncRotationPublisher(repository: repository))
    XCTAssertNotNil(rotated.published)
    XCTAssertNil(vault.header.handoffs?.last?.authorization)

    pair.assertSyncBRefused(
      "a rotation of the remote's master key was not"
        + " authorized with the vault's recovery code (a device that holds the old key made it,"
        + " or the remote was rolled back to before a revocation)")
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
  }

  /// A recovery slot changed outside a rotation (a code of the attacker's own, to enroll with)
  /// is refused, and said to be so before a revocation the attacker's code signed.
  func testARecoverySlotChangedOutsideARotationIsRefused() throws {
    pair.inStep()
    let (vault, key) = try openA()
    let code = RecoveryCode.generate()
    var header = vault.header
    header.recovery = try RecoverySlot.make(
      code: code, masterKey: key, vaultID: header.vaultID, kdf: header.kdf)
    let signer = try Enrollment.key(code: code, vaultID: header.vaultID)
    let victim = try XCTUnwrap(header.devices.first { $0.deviceID != vault.localDevice?.deviceID })
    header.devices.removeAll { $0.deviceID == victim.deviceID }
    header.setRevocations([
      RevokedDevice(
        deviceID: victim.deviceID,
        signed: Enrollment.revocation(
          of: victim.deviceID, writerKey: victim.writerKey, by: signer, vaultID: header.vaultID))
    ])
    header.recovery.enrollmentKey = signer.publicKey.base64
    for index in header.devices.indices {
      header.devices[index] = Enrollment.enrolled(
        header.devices[index], by: signer, vaultID: header.vaultID)
    }
    try vault.writeHeader(header, masterKey: key)
    XCTAssertEqual(pair.syncA().status, 0)
    let refused = pair.syncB()
    XCTAssertEqual(refused.status, 17, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines.first,
      "vault: error: the sync remote was refused: it changed the vault's recovery slot outside a"
        + " rotation (whoever holds the master key can; only a rotation with the recovery code"
        + " may); nothing was merged")
  }

  /// The rotation other devices take needs the code in force: a wrong one changes nothing.
  func testARotationWithOtherDevicesAsksForTheCodeInForce() throws {
    pair.inStep()
    let before = try Data(contentsOf: URL(fileURLWithPath: pair.a.vaultPath))
    let (wrong, _) = try RekeyCLITests.rekey(
      pair.a, typeBack: [], currentCode: "ZYXWVTSRQPNMKJHGFEDCBA9876543210", currentTries: 3)
    XCTAssertEqual(wrong.status, 11, wrong.output)
    XCTAssertTrue(
      wrong.output.contains(
        "vault: error: that is not the recovery code in force, which a rotation other devices"
          + " take needs (a code from before the last rotation no longer works); nothing was"
          + " changed"),
      wrong.output)
    XCTAssertEqual(wrong.output.components(separatedBy: "wrong recovery code; try again").count, 3)
    XCTAssertFalse(wrong.output.contains("New recovery code"), wrong.output)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pair.a.vaultPath)), before)
  }

  /// Attacker finding (enrollment review): a revocation the code did not sign is refused.
  ///
  /// A device that holds the master key and its PIN, not the code, revoked every other device
  /// and then, the only device left, rotated the key with no code asked. The others now refuse
  /// such a revocation, and the header that holds it cannot be rotated.
  func testARevocationTheCodeDidNotAuthorizeIsRefused() throws {
    pair.inStep()
    let (vault, key) = try openA()
    var header = vault.header
    let victim = try XCTUnwrap(header.devices.first { $0.deviceID != vault.localDevice?.deviceID })
    let short = String(victim.deviceIDBytes.hex.prefix(8))
    // Signed with a key of the attacker's own: the header is well formed, the MAC valid.
    let forged = try XCTUnwrap(
      Enrollment.revocation(
        of: victim.deviceID, writerKey: victim.writerKey, by: Signing.generate(),
        vaultID: header.vaultID))
    header.devices.removeAll { $0.deviceID == victim.deviceID }
    header.setRevocations([RevokedDevice(deviceID: victim.deviceID, signed: forged)])
    try vault.writeHeader(header, masterKey: key)
    XCTAssertEqual(pair.syncA().status, 0)

    pair.assertSyncBRefused(
      "the revocation of device \(short) was not"
        + " authorized with the vault's recovery code (a device that held the master key revoked"
        + " it)")
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
    // The attacker, now alone in its header, is asked for no code, and still cannot rotate.
    let (rotation, _) = try RekeyCLITests.rekey(pair.a)
    XCTAssertEqual(rotation.status, 17, rotation.output)
    XCTAssertTrue(
      rotation.output.contains(
        "the revocation of device \(short) was not authorized with the vault's recovery code"),
      rotation.output)
    XCTAssertFalse(rotation.output.contains("Recovery code in force"), rotation.output)
  }

  /// `vault sync revoke` asks for the code in force: a wrong one three times revokes nothing
  /// (exit 11); the right one signs the revocation, which the other device takes.
  func testARevocationAsksForTheCodeInForce() throws {
    pair.inStep()
    let (vault, _) = try openA()
    let victim = try XCTUnwrap(
      vault.header.devices.first { $0.deviceID != vault.localDevice?.deviceID })
    let short = String(victim.deviceIDBytes.hex.prefix(8))
    let before = try Data(contentsOf: URL(fileURLWithPath: pair.a.vaultPath))
    let wrong = "ZYXWVTSRQPNMKJHGFEDCBA9876543210"
    let script =
      ["expect PIN: ", "send \(Sandbox.pin)\\r"]
      + (0..<3).flatMap { _ in
        ["expect Recovery code in force (it authorizes the revocation): ", "send \(wrong)\\r"]
      }
    let result = Subprocess.run(
      "/usr/bin/env",
      [
        "python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/vault", "sync", "revoke",
        short,
      ],
      environment: pair.a.environment, stdin: Array((script.joined(separator: "\n") + "\n").utf8))
    let run = try JSONDecoder().decode(TerminalTests.Run.self, from: Data(result.stdout))
    XCTAssertEqual(run.status, 11, run.output)
    XCTAssertTrue(
      run.output.contains(
        "vault: error: that is not the recovery code in force, which revoking a device needs (a"
          + " code from before the last rotation no longer works); nothing was revoked"),
      run.output)
    XCTAssertEqual(run.output.components(separatedBy: "wrong recovery code; try again").count, 3)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pair.a.vaultPath)), before)

    let revoked = pair.revoke(pair.a, [short])
    XCTAssertEqual(revoked.status, 0, revoked.stderrText)
    let signed = try Vault.open(
      path: pair.a.vaultPath, environment: VaultEnvironment(variables: pair.a.environment))
    XCTAssertEqual(signed.header.revocationPairs.map(\.deviceID), [victim.deviceID])
    XCTAssertNoThrow(try signed.header.verifyEnrollments())
    let refused = pair.syncB()
    XCTAssertEqual(refused.status, 17, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines.first,
      "vault: error: the sync remote was refused: another device revoked this one (\(short)) from"
        + " the vault; nothing was merged")
  }

  /// Attacker findings (enrollment reviews): an edited record is refused as received.
  ///
  /// A remote header whose record of the syncing device does not verify was taken (the merge
  /// kept the local copy), and so was another device's `writer_key` replaced, which the
  /// enrollment did not cover (that device's rotations were then refused as unsigned).
  func testARemoteRecordWhoseEnrollmentOrWriterKeyWasChangedIsRefused() throws {
    pair.inStep()
    let (vault, key) = try openA()
    let pristine = vault.header
    let index = try XCTUnwrap(
      pristine.devices.firstIndex { $0.deviceID != vault.localDevice?.deviceID })
    let short = String(pristine.devices[index].deviceIDBytes.hex.prefix(8))
    let edits: [(String, (inout DeviceRecord) -> Void)] = [
      ("enrollment", { $0.enrollment = [UInt8](repeating: 1, count: 64).base64 }),
      ("writer key", { $0.writerKey = Signing.generate().publicKey.base64 }),
    ]
    // Each edit is pushed on top of the last (B refused both, so it still syncs from before).
    for (what, edit) in edits {
      var header = pristine
      edit(&header.devices[index])
      try vault.writeHeader(header, masterKey: key)
      XCTAssertEqual(pair.syncA().status, 0, what)
      pair.assertSyncBRefused(
        "the device record \(short) was not enrolled"
          + " with the vault's recovery code (a device that held the master key added or changed"
          + " it)")
    }
  }

  /// Attacker findings (third review): header fields outside the devices taken from a remote.
  ///
  /// KDF parameters changed by a device that holds the master key locked every other device
  /// out (its PIN keyslot and the recovery slot no longer matched), and a journal key pair
  /// swapped lost every device's journal. Both are refused, each pushed on top of the last.
  func testAHeaderWhoseKDFOrJournalKeysChangedIsRefused() throws {
    pair.inStep()
    let (vault, key) = try openA()
    let pristine = vault.header
    let journal = SealedBox.keyPair()
    let edits: [(String, (inout Header) -> Void)] = [
      ("kdf", { $0.kdf = .interactive }),
      (
        "journal keys",
        {
          $0.journalPublicKey = journal.publicKey.base64
          $0.journalSecretKey =
            JournalStore.sealSecretKey(journal.secretKey, masterKey: key, vaultID: $0.vaultID)
            .base64
        }
      ),
    ]
    // Pushed as a modified client would, in this process: A's own binary no longer opens a
    // header whose KDF parameters differ from its keyslot's.
    let repository = try GitRepository(
      path: GitRepository.path(forVault: pair.a.vaultPath),
      environment: VaultEnvironment(variables: pair.a.environment))
    for (what, edit) in edits {
      var header = pristine
      edit(&header)
      try vault.writeHeader(header, masterKey: key)
      XCTAssertGreaterThan(
        try VaultSync(vault: vault, masterKey: key, repository: repository).run().sent, 0, what)
      pair.assertSyncBRefused(
        "it changed the vault's KDF parameters or journal keys outside a rotation (whoever holds"
          + " the master key can; no command does)")
    }
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
    XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0)
  }

  /// Attacker findings (third review): a writer key retired under another device's id without
  /// a revocation is refused.
  ///
  /// `retired_writers` merged as a plain union: 256 random entries filled it so that no device
  /// could be revoked any more, and an entry naming another device's id with a key of the
  /// attacker's own made journal entries it signed pass as that device's.
  func testAWriterKeyRetiredWithoutARevocationIsRefused() throws {
    pair.inStep()
    let (vault, key) = try openA()
    var header = vault.header
    let victim = try XCTUnwrap(header.devices.first { $0.deviceID != vault.localDevice?.deviceID })
    header.retiredWriters =
      (header.retiredWriters ?? []) + [
        RetiredWriter(deviceID: victim.deviceID, writerKey: Signing.generate().publicKey.base64)
      ]
    try vault.writeHeader(header, masterKey: key)
    XCTAssertEqual(pair.syncA().status, 0)
    pair.assertSyncBRefused(
      "it retired a writer key of device \(victim.deviceIDBytes.hex.prefix(8)) that no revocation"
        + " with the recovery code retired (a device that held the master key added it)")
  }

  /// Attacker finding M2 (third review): the record a recovery replaced, still signed by the
  /// code, put back by a device that holds the master key.
  ///
  /// The other devices took it, and the next rotation sealed the new key to a key pair the
  /// recovered device no longer had, so it could not take the rotation. The enrollment serial
  /// orders the two records (`vault(5)` ENROLLMENT): a sync keeps the higher.
  func testARecordARecoveryReplacedCannotBePutBack() throws {
    pair.inStep()
    // C joins as B did (a copy of A's file, recovered with the code); everyone learns of it.
    let c = Sandbox()
    let pinC = "864200"
    try FileManager.default.createDirectory(
      atPath: (c.vaultPath as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.copyItem(atPath: pair.a.vaultPath, toPath: c.vaultPath)
    XCTAssertEqual(c.vault(["recover"], pin: [pair.recoveryCode, pinC]).status, 0)
    XCTAssertEqual(c.vault(["sync", "init", pair.remote], pin: [pinC]).status, 0)
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.syncB().status, 0)

    let replaced = try XCTUnwrap(try pair.open(pair.b, pin: SyncPair.pinB).vault.localDevice)
    XCTAssertEqual(replaced.enrollmentSerial, 1)
    let pinB = "975310"
    let recovered = pair.b.vault(["recover"], pin: [pair.recoveryCode, pinB])
    XCTAssertEqual(recovered.status, 0, recovered.stderrText)
    XCTAssertEqual(pair.b.vault(["sync"], pin: [pinB]).status, 0)
    let current = try XCTUnwrap(try pair.open(pair.b, pin: pinB).vault.localDevice)
    XCTAssertEqual(current.enrollmentSerial, 2)
    XCTAssertNotEqual(current.publicKey, replaced.publicKey)
    XCTAssertEqual(pair.syncA().status, 0)

    // C, up to date, puts the replaced record back in its header and pushes it.
    XCTAssertEqual(c.vault(["sync"], pin: [pinC]).status, 0)
    let (attacker, key) = try pair.open(c, pin: pinC)
    var header = attacker.header
    header.setDevice(replaced)
    try attacker.writeHeader(header, masterKey: key)
    XCTAssertEqual(c.vault(["sync"], pin: [pinC]).status, 0)

    XCTAssertEqual(pair.syncA().status, 0)
    let seen = try pair.openA().vault.header.device(id: current.deviceID)
    XCTAssertEqual(seen?.publicKey, current.publicKey)
    XCTAssertEqual(seen?.enrollmentSerial, 2)
    // A rotation on A seals the new key to B's key pair: B takes it and reads.
    let (rotation, _) = try RekeyCLITests.rekey(pair.a, currentCode: pair.recoveryCode)
    XCTAssertEqual(rotation.status, 0, rotation.output)
    let took = pair.b.vault(["sync"], pin: [pinB])
    XCTAssertEqual(took.status, 0, took.stderrText)
    XCTAssertEqual(pair.b.vault(["get", "mail/work"], pin: [pinB]).stdoutText, "hunter2")
  }

  /// A vault made by release 0.5.0 is enrolled with its code at its first `sync init`.
  ///
  /// The code is asked for once; a wrong one enrolls nothing and sets up nothing. A device that
  /// clones the vault then reads it.
  func testAVaultOf050IsEnrolledWithTheCodeAtItsFirstSync() throws {
    let box = try ReleaseFixtureTests.makeBox(from: ReleaseFixtureTests.release050)
    let remote = box.home + "/remote.git"
    let code = "2K0T-JEM3-44SP-Z7YG-XQD1-GCFR-SE2V-0CAK-NYTB"
    let wrong = box.vault(
      ["sync", "init", remote], pin: ["246810", "ZYXWVTSRQPNMKJHGFEDCBA9876543210"])
    XCTAssertEqual(wrong.status, 11, wrong.stderrText)
    XCTAssertEqual(
      wrong.errorLines,
      [
        "This vault's devices are not enrolled with its recovery code yet (a vault made before"
          + " release 0.10.0): the recovery code enrolls them, once, so that only it can add a"
          + " device.",
        "vault: error: wrong recovery code",
      ])
    XCTAssertFalse(FileManager.default.fileExists(atPath: remote))
    let vault = try Vault.open(
      path: box.vaultPath, environment: VaultEnvironment(variables: box.environment))
    XCTAssertFalse(vault.isEnrolled)

    let enrolled = box.vault(["sync", "init", remote], pin: ["246810", code])
    XCTAssertEqual(enrolled.status, 0, enrolled.stderrText)
    XCTAssertEqual(
      Array(enrolled.errorLines.prefix(2)),
      [
        "This vault's devices are not enrolled with its recovery code yet (a vault made before"
          + " release 0.10.0): the recovery code enrolls them, once, so that only it can add a"
          + " device.",
        "Enrolled the vault's 1 device record(s).",
      ])
    let reopened = try Vault.open(
      path: box.vaultPath, environment: VaultEnvironment(variables: box.environment))
    XCTAssertTrue(reopened.isEnrolled)
    XCTAssertNoThrow(try reopened.header.verifyEnrollments())
    // Enrolled once: the next sync asks for no code (only the PIN is given).
    let again = box.vault(["sync"], pin: ["246810"])
    XCTAssertEqual(again.status, 0, again.stderrText)
    XCTAssertFalse(again.stderrText.contains("enroll"), again.stderrText)

    let other = Sandbox()
    let cloned = other.vault(["sync", "clone", remote], pin: [code, SyncPair.pinB])
    XCTAssertEqual(cloned.status, 0, cloned.stderrText)
    XCTAssertEqual(other.vault(["get", "small"], pin: [SyncPair.pinB]).stdoutText, "second\n")
    XCTAssertEqual(
      other.vault(["get", "big"], pin: [SyncPair.pinB]).stdout,
      (0..<1_258_291).map { UInt8((7 * $0 + 3) % 251) })
  }
}
