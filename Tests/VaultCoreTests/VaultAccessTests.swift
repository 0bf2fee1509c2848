import VaultTestSupport
import XCTest

@testable import VaultAgent
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// A sensor that answers from a script: preflight failures and evaluations.
final class ScriptedGate: BiometricGate, @unchecked Sendable {
  var preflightFailure: BiometricFailure?
  /// What a preflight reports when it succeeds.
  var current = BiometricMatch(domainState: [UInt8](repeating: 7, count: 32), type: "touch-id")
  var answers: [Result<BiometricMatch, BiometricFailure>] = []
  private(set) var evaluations = 0
  /// The reason of every evaluation, in order.
  private(set) var reasons: [String] = []
  private(set) var credentialsVerified = 0

  func preflight() throws -> BiometricMatch {
    if let preflightFailure { throw preflightFailure }
    return current
  }

  func evaluate(
    reason: String, reuse: Double,
    count: ((inout DeviceState, AttemptVerdict, FailureRun) -> Void)?
  ) throws -> BiometricMatch {
    evaluations += 1
    reasons.append(reason)
    guard !answers.isEmpty else { throw BiometricFailure.notInteractive }
    return try answers.removeFirst().get()
  }

  func credentialVerified() throws { credentialsVerified += 1 }

  /// The sensor's failure run a lockout check reads.
  var run = FailureRun(run: 0, failures: 0)

  func failureRun() throws -> FailureRun { run }

  func currentType() throws -> String { "touch-id" }

  /// The keychain items stored "when passcode set".
  var keychain: Set<String> = []

  func bindToPasscode(_ id: String) throws { keychain.insert(id) }

  func isBoundToPasscode(_ id: String) throws -> Bool { keychain.contains(id) }

  func unbindFromPasscode(_ id: String) throws { keychain.remove(id) }
}

/// Credentials from a script, counting every request.
final class ScriptedCredentials: CredentialSource {
  var sessionToken: String?
  var heldKey: HeldKey?
  var canAskForPIN = true
  var pins: [String]
  var code: SecureBytes?
  private(set) var requests: [PINRequest] = []

  init(pins: [String] = [], sessionToken: String? = nil, heldKey: HeldKey? = nil) {
    self.pins = pins
    self.sessionToken = sessionToken
    self.heldKey = heldKey
  }

  func pin(_ request: PINRequest) throws -> PIN {
    requests.append(request)
    guard !pins.isEmpty else { throw VaultError.locked(.noTerminalToRead(.secret)) }
    return try VaultCoreTests.pin(pins.removeFirst())
  }

  func recoveryCode() throws -> SecureBytes {
    guard let code else { throw VaultError.wrongRecoveryCode }
    return code
  }
}

/// The access policy: what runs before any prompt, what each purpose asks for, and the rules
/// that follow (revocation on a PIN change, a recovery and a mismatch).
final class VaultAccessTests: XCTestCase {
  var home: TemporaryHome!
  var gate: ScriptedGate!
  let domain = [UInt8](repeating: 7, count: 32)

  override func setUp() {
    home = TemporaryHome()
    gate = ScriptedGate()
  }

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { home = nil }

  var environment: VaultEnvironment { home.environment() }

  func match(_ domain: [UInt8]? = nil) -> Result<BiometricMatch, BiometricFailure> {
    .success(BiometricMatch(domainState: domain ?? self.domain, type: "touch-id"))
  }

  /// A biometric vault activated with `domain`, PIN 1234.
  func activatedVault() throws -> Vault {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinAndBiometry,
      environment: environment)
    gate.answers = [match()]
    _ = try VaultAccess(vault: created.vault, gate: gate).created(created).activateBiometry()
    return try reopened()
  }

  func reopened() throws -> Vault { try Vault.open(path: home.vaultPath, environment: environment) }

  func access(_ vault: Vault) -> VaultAccess { VaultAccess(vault: vault, gate: gate) }

  /// A session as the agent's worker has it: the key an unlock released, held by a grant.
  func session(_ vault: Vault) throws -> HeldKey {
    gate.answers = [match()]
    let unlocked = try access(vault).open(
      for: .startSession, via: ScriptedCredentials(pins: ["123400"]))
    return HeldKey(vaultID: vault.vaultID, key: unlocked.masterKey, isGrant: true)
  }

  /// Every session was ended for `reason`: a token the agent no longer serves, with no way to
  /// ask for the PIN, says why (`SessionLedger.Revocation`).
  func assertSessionRevoked(
    by reason: SessionLedger.Revocation, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let token = SessionToken.issue(folder: home.runtime + "/vault")
    let credentials = ScriptedCredentials(
      sessionToken: String(decoding: token.text.unprotectedBytes, as: UTF8.self))
    credentials.canAskForPIN = false
    XCTAssertThrowsError(
      try access(reopened()).open(for: .use(reason: "r"), via: credentials), file: file,
      line: line
    ) {
      XCTAssertEqual(
        VaultError($0), .locked(.sessionsRevoked(reason, noTerminal: false)), file: file, line: line
      )
    }
  }

  /// A device record tagged as release 0.2.0 tagged it (the master box covered) still unlocks,
  /// and the unlock rewrites the tag in the current form, which a rotation elsewhere cannot
  /// break.
  func testASlotTagOfRelease020UnlocksAndIsRewritten() throws {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: environment)
    let vault = created.vault
    let secret = try vault.device.read().deviceSecret
    var header = vault.header
    var record = try XCTUnwrap(header.device(for: secret))
    record.slotTag = DeviceRecord.legacySlotTag(
      deviceSecret: secret, vaultID: vault.vaultID, kdf: header.kdf, record: record)
    header.setDevice(record)
    try vault.writeHeader(header, masterKey: created.masterKey)
    let legacy = try reopened()
    XCTAssertEqual(
      try XCTUnwrap(legacy.header.device(for: secret)).checkSlotTag(
        deviceSecret: secret, vaultID: legacy.vaultID, kdf: legacy.header.kdf), .legacy)
    _ = try access(legacy).open(
      for: .use(reason: "test"), via: ScriptedCredentials(pins: ["123400"]))
    let upgraded = try reopened()
    let stored = try XCTUnwrap(upgraded.header.device(for: secret))
    XCTAssertEqual(
      stored.checkSlotTag(
        deviceSecret: secret, vaultID: upgraded.vaultID, kdf: upgraded.header.kdf),
      .current)
    XCTAssertEqual(
      stored.slotTag,
      DeviceRecord.slotTag(
        deviceSecret: secret, vaultID: upgraded.vaultID, kdf: upgraded.header.kdf, record: stored))
    // An edited keyslot matches neither form.
    var edited = upgraded.header
    var broken = stored
    broken.pinSalt = Salt.random().bytes.base64
    edited.setDevice(broken)
    try upgraded.writeHeader(edited, masterKey: created.masterKey)
    XCTAssertThrowsError(try reopened().checkBeforePIN(upgraded.device.read())) {
      guard VaultError($0)?.isIntegrityFailure == true else { return XCTFail("\($0)") }
    }
  }

  func testUnlockAsksForThePINThenOneMatch() throws {
    let vault = try activatedVault()
    let credentials = ScriptedCredentials(pins: ["123400"])
    gate.answers = [match()]
    let unlocked = try access(vault).open(for: .startSession, via: credentials)
    XCTAssertEqual(unlocked.source, .pin)
    XCTAssertEqual(credentials.requests, [.unlock])
    XCTAssertEqual(gate.evaluations, 2)
    XCTAssertEqual(gate.credentialsVerified, 1)
  }

  func testChecksThatNeedNoKeyRunBeforeAnyPrompt() throws {
    let vault = try activatedVault()
    let device = DeviceStore(environment: environment)

    // Disabled (after a mismatch): refused, no PIN asked, no attempt counted.
    try device.update {
      $0.pendingDisables[vault.vaultID.hex] = PendingDisable(
        reason: PendingDisable.emptiedEnrollment, at: "2026-01-01T00:00:00Z")
    }
    let credentials = ScriptedCredentials(pins: ["000000"])
    XCTAssertThrowsError(try access(reopened()).open(for: .startSession, via: credentials)) {
      XCTAssertEqual(
        VaultError($0),
        .biometryDisabled(since: "2026-01-01T00:00:00Z", reason: PendingDisable.emptiedEnrollment))
    }
    try device.update { $0.pendingDisables = [:] }

    // An unusable sensor.
    let off = SensorCode(words: "biometry not available", raw: -6)
    gate.preflightFailure = .notAvailable(off)
    XCTAssertThrowsError(try access(reopened()).open(for: .use(reason: "r"), via: credentials)) {
      XCTAssertEqual(VaultError($0), .biometryUnavailable(off))
    }

    // A lockout is not a refusal: the PIN clears it.
    gate.preflightFailure = .lockout
    gate.answers = [match()]
    XCTAssertNoThrow(
      try access(reopened()).open(
        for: .use(reason: "r"), via: ScriptedCredentials(pins: ["123400"])))

    // A PIN delay.
    gate.preflightFailure = nil
    try device.update {
      var attempts = PINAttempts()
      attempts.failures = 5
      attempts.lastAttemptAt = environment.clock.wallNow
      $0.pinAttempts[vault.vaultID.hex] = attempts
    }
    XCTAssertThrowsError(try access(reopened()).open(for: .startSession, via: credentials)) {
      XCTAssertEqual(VaultError($0), .pinDelay(seconds: 60))
    }
    XCTAssertEqual(credentials.requests, [])
    XCTAssertEqual(gate.evaluations, 2)
  }

  func testAnEmptiedEnrollmentDisablesAndRevokesBeforeAnyPrompt() throws {
    let vault = try activatedVault()
    _ = try session(vault)
    gate.preflightFailure = .notEnrolled
    let credentials = ScriptedCredentials(pins: ["123400"])
    XCTAssertThrowsError(try access(reopened()).open(for: .startSession, via: credentials)) {
      XCTAssertEqual(VaultError($0), .enrollmentChanged("the enrollment was emptied"))
    }
    XCTAssertEqual(credentials.requests, [])
    try assertSessionRevoked(by: .biometricChange)
    let device = try DeviceStore(environment: environment).read()
    guard case .disabled(_, let reason) = VaultAccess.biometryStatus(of: vault, device: device)
    else { return XCTFail("not disabled") }
    XCTAssertEqual(reason, "the enrollment was emptied")

    // Re-activation (PIN, then a match) is the way back; the header then says active.
    gate.preflightFailure = nil
    gate.answers = [match()]
    let unlocked = try access(reopened()).open(
      for: .activateBiometry, via: ScriptedCredentials(pins: ["123400"]))
    _ = try unlocked.activateBiometry()
    let after = try DeviceStore(environment: environment).read()
    XCTAssertEqual(after.pendingDisables, [:])
    guard case .active = VaultAccess.biometryStatus(of: try reopened(), device: after) else {
      return XCTFail("not active")
    }
  }

  func testAMismatchDisablesAndRevokesEverySession() throws {
    let vault = try activatedVault()
    _ = try session(vault)
    gate.answers = [match([UInt8](repeating: 8, count: 32))]
    XCTAssertThrowsError(
      try access(reopened()).open(for: .startSession, via: ScriptedCredentials(pins: ["123400"]))
    ) {
      XCTAssertEqual(VaultError($0), .enrollmentChanged("the biometric enrollment changed"))
    }
    try assertSessionRevoked(by: .biometricChange)
    XCTAssertEqual(try reopened().biometry?.state, .disabled)
  }

  func testAPINChangeRevokesEverySession() throws {
    let vault = try activatedVault()
    _ = try session(vault)
    gate.answers = [match()]
    let unlocked = try access(vault).open(
      for: .administer(reason: "change"), via: ScriptedCredentials(pins: ["123400"]))
    XCTAssertEqual(try unlocked.changePIN(to: pin("567800")).disabledForeignSeal, false)
    try assertSessionRevoked(by: .pinChange)
  }

  func testARecoveryRevokesEverySessionAndDisablesAForeignSeal() throws {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinAndBiometry,
      environment: environment)
    gate.answers = [match()]
    _ = try VaultAccess(vault: created.vault, gate: gate).created(created).activateBiometry()
    _ = try session(try reopened())
    // Another device: a new device secret.
    try DeviceStore(environment: environment).update { $0.deviceSecret = .random() }
    let credentials = ScriptedCredentials()
    credentials.code = created.recoveryCode
    let unlocked = try access(reopened()).open(for: .recover, via: credentials)
    XCTAssertEqual(unlocked.source, .recoveryCode)
    XCTAssertEqual(try unlocked.changePIN(to: pin("222200")).disabledForeignSeal, true)
    try assertSessionRevoked(by: .pinChange)
    XCTAssertEqual(
      try reopened().biometry?.reason,
      "this device joined with the recovery code, and a seal belongs to the device that made it")
  }

  func testAGuardedReadInASessionNeedsAFreshMatch() throws {
    let vault = try activatedVault()
    let held = try session(vault)
    let unlocked = try access(vault).open(
      for: .use(reason: "add"), via: ScriptedCredentials(heldKey: held))
    try unlocked.entries.put(
      EntryName("bank"), content: secure("4242"), overwrite: false, guarded: true)
    let before = gate.evaluations
    gate.answers = [match()]
    let read = try access(reopened()).open(
      for: .readEntry(EntryName("bank")), via: ScriptedCredentials(heldKey: held))
    XCTAssertEqual(read.source, .session)
    XCTAssertEqual(try read.entry?.content, secure("4242"))
    XCTAssertEqual(gate.evaluations, before + 1)
    // Within a second: a duplicate.
    XCTAssertThrowsError(
      try access(reopened()).open(
        for: .readEntry(EntryName("bank")), via: ScriptedCredentials(heldKey: held))
    ) { XCTAssertEqual(VaultError($0), .duplicateRequest) }
  }

  /// Issue "A first week without friction": the biometric prompt says what the command does
  /// with the entry, at the unlock and at a guarded entry's fresh check.
  func testThePromptNamesWhatTheCommandDoes() throws {
    let vault = try activatedVault()
    let held = try session(vault)
    let unlocked = try access(vault).open(
      for: .use(reason: "add"), via: ScriptedCredentials(heldKey: held))
    try unlocked.entries.put(
      EntryName("bank"), content: secure("4242"), overwrite: false, guarded: true)
    gate.answers = [match()]
    _ = try access(reopened()).open(
      for: .readEntry(EntryName("bank"), action: "set a field of 'bank'"),
      via: ScriptedCredentials(heldKey: held))
    XCTAssertEqual(gate.reasons.last, "set a field of 'bank' (guarded)")
    gate.answers = [match()]
    _ = try access(reopened()).open(
      for: .readEntry(EntryName("bank"), action: "set a field of 'bank'"),
      via: ScriptedCredentials(pins: ["123400"]))
    XCTAssertEqual(gate.reasons.last, "set a field of 'bank'")
    gate.answers = [match()]
    _ = try access(reopened()).open(
      for: .readEntry(EntryName("bank")), via: ScriptedCredentials(pins: ["123400"]))
    XCTAssertEqual(gate.reasons.last, "read 'bank'")
  }

  func testAMalformedSealedDomainStateIsAnIntegrityFailureNotAChange() throws {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinAndBiometry,
      environment: environment)
    // A seal whose domain state is not 32 bytes of base64, sealed under the right key.
    var seal = BiometricSeal(
      domainState: [1, 2, 3], type: "touch-id", activatedAt: "T", passcodeBound: nil)
    seal.domainState = "not base64!"
    let json = try JSONEncoder().encode(seal)
    var device = try XCTUnwrap(created.vault.localDevice)
    let box = AEAD.seal(
      [UInt8](json), key: created.masterKey.derive(.biometry),
      associatedData: Array("vault.biometry.v2".utf8) + created.vault.vaultID.bytes
        + device.deviceIDBytes)
    var header = created.vault.header
    device.biometry = BiometryRecord(state: .active, changedAt: "T", reason: nil, seal: box.base64)
    header.setDevice(device)
    try created.vault.writeHeader(header, masterKey: created.masterKey)
    gate.answers = [match()]
    XCTAssertThrowsError(
      try access(reopened()).open(for: .startSession, via: ScriptedCredentials(pins: ["123400"]))
    ) {
      XCTAssertEqual(
        VaultError($0), .malformedHeader(.invalidBase64(field: "sealed domain state")))
    }
    XCTAssertEqual(try reopened().biometry?.state, .active)
  }
}

/// Two commands on one vault at once: neither writes back a stale header over the other's.
final class ConcurrentHeaderTests: XCTestCase {
  var home: TemporaryHome!
  var gate: ScriptedGate!

  override func setUp() {
    home = TemporaryHome()
    gate = ScriptedGate()
  }
  override func tearDown() { home = nil }

  func match(_ byte: UInt8 = 7) -> Result<BiometricMatch, BiometricFailure> {
    .success(BiometricMatch(domainState: [UInt8](repeating: byte, count: 32), type: "touch-id"))
  }

  func open() throws -> Vault {
    try Vault.open(path: home.vaultPath, environment: home.environment())
  }

  func activated() throws {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123456"), kdf: .test, policy: .pinAndBiometry,
      environment: home.environment())
    gate.answers = [match()]
    _ = try VaultAccess(vault: created.vault, gate: gate).created(created).activateBiometry()
  }

  func testADisableAfterAConcurrentPINChangeKeepsTheNewPIN() throws {
    try activated()
    // One command has unlocked and waits at the sensor; meanwhile another changes the PIN.
    let slow = try open()
    let key = try slow.unlock(pin: pin("123456"))
    gate.answers = [match()]
    let other = try VaultAccess(vault: open(), gate: gate).open(
      for: .administer(reason: "change"), via: ScriptedCredentials(pins: ["123456"]))
    try other.changePIN(to: pin("654321"))
    // The slow one now sees a mismatch and disables biometric unlock.
    gate.answers = [match(8)]
    XCTAssertThrowsError(
      try BiometricBinding(vault: slow, gate: gate).checkPresence(masterKey: key, reason: "r"))
    let after = try open()
    XCTAssertEqual(after.biometry?.state, .disabled)
    XCTAssertNoThrow(try after.unlock(pin: pin("654321")))
    XCTAssertThrowsError(try open().unlock(pin: pin("123456"))) {
      XCTAssertEqual(VaultError($0), .wrongPIN(attemptsBeforeDelay: 4))
    }
  }

  func testAStaleActivationIsRefusedAsAChangedVault() throws {
    try activated()
    let stale = try VaultAccess(vault: open(), gate: gate).open(
      for: .activateBiometry, via: ScriptedCredentials(pins: ["123456"]))
    gate.answers = [match()]
    try VaultAccess(vault: open(), gate: gate).open(
      for: .administer(reason: "change"), via: ScriptedCredentials(pins: ["123456"])
    ).changePIN(to: pin("654321"))
    gate.answers = [match()]
    XCTAssertThrowsError(try stale.activateBiometry()) {
      XCTAssertEqual(
        VaultError($0), .vaultChanged(.headerChangedFirst))
    }
    XCTAssertNoThrow(try open().unlock(pin: pin("654321")))
  }

  func testAnUnlockThatStartedBeforeAPINChangeIssuesNoSession() throws {
    try activated()
    gate.answers = [match()]
    let unlocking = try VaultAccess(vault: open(), gate: gate).open(
      for: .startSession, via: ScriptedCredentials(pins: ["123456"]))
    gate.answers = [match()]
    try VaultAccess(vault: open(), gate: gate).open(
      for: .administer(reason: "change"), via: ScriptedCredentials(pins: ["123456"])
    ).changePIN(to: pin("654321"))
    XCTAssertThrowsError(try unlocking.issueSession(idle: 900)) {
      XCTAssertEqual(
        VaultError($0), .vaultChanged(.headerChangedSincePINChecked))
    }
  }
}
