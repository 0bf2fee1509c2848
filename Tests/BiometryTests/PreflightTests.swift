import Biometry
import Testing
import VaultCore

@Suite struct PreflightTests {
  @Test func freshContextHasNoTypeAndNoDomainState() throws {
    let fixture = try Fixture.enrolled(.faceID)
    let context = fixture.context()
    #expect(context.biometryType == .none)
    #expect(context.evaluatedPolicyDomainState == nil)
  }

  @Test func errorsInOrder() throws {
    let fixture = try Fixture()
    let context = fixture.context()
    // Everything wrong at once: unavailable, not enrolled, locked out, no passcode.
    try fixture.controls.setHardware(.faceID, external: true)
    try fixture.controls.setAvailability(.unavailable)
    try fixture.controls.forceLockout()
    try fixture.controls.setPasscode(false)
    #expect(throws: LAError.biometryNotAvailable) { try context.canEvaluatePolicy() }
    #expect(context.biometryType == .faceID)

    try fixture.controls.setAvailability(.notPaired)
    #expect(throws: LAError.biometryNotPaired) { try context.canEvaluatePolicy() }

    try fixture.controls.setAvailability(.disconnected)
    #expect(throws: LAError.biometryDisconnected) { try context.canEvaluatePolicy() }

    try fixture.controls.setAvailability(.available)
    #expect(throws: LAError.biometryNotEnrolled) { try context.canEvaluatePolicy() }

    try fixture.controls.setPasscode(true)
    try fixture.controls.enroll(label: nil)
    try fixture.controls.setPasscode(false, keepEnrollment: true)
    #expect(throws: LAError.biometryLockout) { try context.canEvaluatePolicy() }
    #expect(context.evaluatedPolicyDomainState == nil)

    try fixture.controls.clearLockout()
    #expect(throws: LAError.passcodeNotSet) { try context.canEvaluatePolicy() }
    #expect(context.evaluatedPolicyDomainState == nil)

    try fixture.controls.setPasscode(true)
    try context.canEvaluatePolicy()
    #expect(context.biometryType == .faceID)
    #expect(context.evaluatedPolicyDomainState == (try fixture.domainState()))
    #expect(context.evaluatedPolicyDomainState?.count == 32)
  }

  @Test func noHardwareComesFirst() throws {
    let fixture = try Fixture.enrolled(.touchID)
    try fixture.controls.setHardware(.touchID, external: true)
    try fixture.controls.setAvailability(.disconnected)
    try fixture.controls.setHardware(.none)
    try fixture.controls.forceLockout()
    let context = fixture.context()
    #expect(throws: LAError.biometryNotAvailable) { try context.canEvaluatePolicy() }
    #expect(context.biometryType == BiometryType.none)
  }

  @Test func failedPreflightClearsAnEarlierDomainState() throws {
    let fixture = try Fixture.enrolled()
    let context = fixture.context()
    try context.canEvaluatePolicy()
    #expect(context.evaluatedPolicyDomainState != nil)
    try fixture.controls.unenrollAll()
    #expect(throws: LAError.biometryNotEnrolled) { try context.canEvaluatePolicy() }
    #expect(context.evaluatedPolicyDomainState == nil)
    #expect(context.biometryType == .touchID)
  }

  @Test func typeFollowsTheHardware() throws {
    let fixture = try Fixture.enrolled(.opticID)
    let context = fixture.context()
    try context.canEvaluatePolicy()
    #expect(context.biometryType == .opticID)
    try fixture.controls.setHardware(.touchID)
    #expect(throws: LAError.biometryNotEnrolled) { try context.canEvaluatePolicy() }
    #expect(context.biometryType == .touchID)
  }

  @Test func evaluationRerunsPreflightWithoutConsumingTheQueue() throws {
    let fixture = try Fixture()
    try fixture.controls.setHardware(.touchID, external: true)
    try fixture.controls.queue(.match, count: 1)
    let cases: [(() throws -> Void, LAError)] = [
      ({ try fixture.controls.setAvailability(.unavailable) }, .biometryNotAvailable),
      ({ try fixture.controls.setAvailability(.disconnected) }, .biometryDisconnected),
      ({ try fixture.controls.setAvailability(.available) }, .biometryNotEnrolled),
      (
        {
          try fixture.controls.enroll(label: nil); try fixture.controls.forceLockout()
        },
        .biometryLockout
      ),
    ]
    for (change, error) in cases {
      try change()
      #expect(throws: error) { try fixture.context().evaluatePolicy(localizedReason: "x") }
    }
    #expect(try fixture.sensor().queue == ["match"])
    #expect(try fixture.sensor().consecutiveFailures == 5)
  }
}
