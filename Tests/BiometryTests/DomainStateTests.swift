import Biometry
import CSodium
import Foundation
import Testing
import VaultCore
import VaultCrypto
import VaultFormat

@Suite struct DomainStateTests {
  /// Key 00 01 … 1f, face-id, generation 7, OS epoch 3, app `com.example.vault`; the expected
  /// value was computed with Python's hashlib.blake2b(msg, key=key, digest_size=32).
  @Test func knownAnswer() throws {
    let key = [UInt8](0..<32)
    var sensor = SensorState()
    sensor.hardware = "face-id"
    sensor.enrolled = [.init(id: "AAAAAAAAAAAAAAAAAAAAAA==", label: "face-1", enrolledAt: "x")]
    sensor.enrollmentGeneration = 7
    sensor.osEpoch = 3
    let value = DomainState.compute(
      sensor: sensor, deviceSecret: try DeviceSecret(SecureBytes(copying: key)),
      appID: "com.example.vault")

    #expect(
      value?.hex == "d32796ca3424e24c1cde8aca5ca1808b00c1aab7877c22b66e2a282299d93f3c")

    // The same hash through libsodium directly.
    let message =
      Array("biosim.domain.v1".utf8) + [2] + [7, 0, 0, 0, 0, 0, 0, 0] + [3, 0, 0, 0]
      + Array("com.example.vault".utf8)
    #expect(sodium_init() >= 0)
    var expected = [UInt8](repeating: 0, count: 32)
    let rc = crypto_generichash(
      &expected, 32, message, UInt64(message.count), key, key.count)
    #expect(rc == 0)
    #expect(value == expected)
  }

  @Test func knownAnswerThroughTheStore() throws {
    let fixture = try Fixture.enrolled(.faceID)
    try fixture.store.update { state in
      state.deviceSecret = try DeviceSecret(SecureBytes(copying: [UInt8](0..<32)))
      var sensor = try state.sensorState()
      sensor.enrollmentGeneration = 7
      sensor.osEpoch = 3
      try state.setSensorState(sensor)
    }
    let context = fixture.context()
    try context.canEvaluatePolicy()
    #expect(
      context.evaluatedPolicyDomainState?.hex
        == "d32796ca3424e24c1cde8aca5ca1808b00c1aab7877c22b66e2a282299d93f3c")
  }

  @Test func nilWithoutEnrollmentOrHardware() throws {
    let secret = DeviceSecret.random()
    var sensor = SensorState()
    #expect(DomainState.compute(sensor: sensor, deviceSecret: secret, appID: "a") == nil)
    sensor.enrolled = [.init(id: "AAAAAAAAAAAAAAAAAAAAAA==", label: "finger-1", enrolledAt: "x")]
    #expect(DomainState.compute(sensor: sensor, deviceSecret: secret, appID: "a")?.count == 32)
    sensor.hardware = "none"
    #expect(DomainState.compute(sensor: sensor, deviceSecret: secret, appID: "a") == nil)
    sensor.hardware = "retina-scanner"
    #expect(DomainState.compute(sensor: sensor, deviceSecret: secret, appID: "a") == nil)
  }

  @Test func perApp() throws {
    let fixture = try Fixture.enrolled()
    let a = try #require(try fixture.domainState(app: "app.a"))
    let b = try #require(try fixture.domainState(app: "app.b"))
    #expect(a != b)
  }

  @Test func unchangedByMatchFailureAndLockout() throws {
    let fixture = try Fixture.enrolled(.faceID)
    let original = try #require(try fixture.domainState())
    try fixture.controls.queue(.noMatch, count: 1)
    try fixture.controls.queue(.match, count: 1)
    #expect(try fixture.context().evaluatePolicy(localizedReason: "unlock") == original)
    try fixture.controls.queue(.noMatch, count: 5)
    for expected in [LAError.authenticationFailed, .authenticationFailed, .biometryLockout] {
      #expect(throws: expected) { try fixture.context().evaluatePolicy(localizedReason: "x") }
    }
    #expect(try fixture.sensor().lockedOut)
    #expect(try fixture.domainState() == original)
    try fixture.controls.clearLockout()
    let context = fixture.context()
    try context.canEvaluatePolicy()
    #expect(context.evaluatedPolicyDomainState == original)
  }

  @Test func changesOnEveryEnrollmentChange() throws {
    let fixture = try Fixture.enrolled(.touchID)
    let original = try #require(try fixture.domainState())
    var seen = [original]

    let added = try fixture.controls.enroll(label: "right-index")
    seen.append(try #require(try fixture.domainState()))
    try fixture.controls.unenroll(label: added.label)
    let afterAddRemove = try #require(try fixture.domainState())
    #expect(try fixture.sensor().enrolled.map(\.label) == ["finger-1"])
    #expect(afterAddRemove != original)
    seen.append(afterAddRemove)

    try fixture.controls.osUpgrade()
    seen.append(try #require(try fixture.domainState()))

    try fixture.controls.setHardware(.faceID)
    #expect(try fixture.domainState() == nil)
    try fixture.controls.enroll(label: nil)
    seen.append(try #require(try fixture.domainState()))

    try fixture.controls.unenrollAll()
    #expect(try fixture.domainState() == nil)
    try fixture.controls.enroll(label: nil)
    seen.append(try #require(try fixture.domainState()))

    #expect(Set(seen.map(\.hex)).count == seen.count)
  }

  @Test func typeChangeAloneChangesIt() throws {
    // Same generation and epoch, only the type code differs.
    let secret = DeviceSecret.random()
    var sensor = SensorState()
    sensor.enrolled = [.init(id: "AAAAAAAAAAAAAAAAAAAAAA==", label: "x", enrolledAt: "x")]
    let values = ["touch-id", "face-id", "optic-id"].map { hardware -> [UInt8]? in
      sensor.hardware = hardware
      return DomainState.compute(sensor: sensor, deviceSecret: secret, appID: "a")
    }
    #expect(Set(values.compactMap { $0?.hex }).count == 3)
  }

  @Test func resetChangesTheDeviceSecretAndTheDomainState() throws {
    let fixture = try Fixture.enrolled()
    let before = try fixture.store.read()
    let original = try #require(try fixture.domainState())
    try fixture.controls.reset()
    let after = try fixture.store.read()
    #expect(after.deviceSecret != before.deviceSecret)
    #expect(after.deviceSecret.bytes.count == 32)
    try fixture.controls.enroll(label: nil)
    #expect(try fixture.sensor().enrollmentGeneration == 2)
    // Same history as `before` (generation 2, epoch 1, touch-id), different device.
    #expect(try fixture.domainState() != original)
  }
}
