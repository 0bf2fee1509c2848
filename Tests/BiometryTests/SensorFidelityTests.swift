import Biometry
import Testing
import VaultCore
import VaultFormat

/// The platform behaviours added in release 0.9.0: answers that expire, retries, the fallback
/// button, the Android lockout, the device passcode and its keychain items, enrollment limits and
/// the reuse window.
@Suite struct SensorFidelityTests {
  @Test func queuedAnswersExpireAfter120Seconds() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(.match, count: 1)
    fixture.travel(to: 1060)
    try fixture.controls.queue(.noMatch, count: 1)
    #expect(try fixture.sensor().queue == ["match", "no-match"])
    #expect(
      try fixture.sensor().pendingAnswers(now: 1060).map(\.secondsLeft) == [60, 120])
    fixture.travel(to: 1120)
    #expect(try fixture.sensor().queue == ["match", "no-match"], "120 s exactly is still valid")
    fixture.travel(to: 1121)
    #expect(try fixture.sensor().queue == ["no-match"])
    // The stale match answers nothing: the evaluation takes the live no-match, then has no one
    // to ask.
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().consecutiveFailures == 1)
    #expect(try fixture.sensor().queue.isEmpty)
  }

  @Test func anotherBootDropsTheQueueTheTimedLockoutAndTheDeviceUnlock() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.setProfile(.android)
    try fixture.controls.unlockDevice()
    try fixture.controls.queue(.noMatch, count: 5)
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    try fixture.controls.queue(.noMatch, count: 3)
    #expect(throws: LAError.biometryLockout) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    var sensor = try fixture.sensor()
    #expect(sensor.lockedUntil == 1030)
    #expect(sensor.queue == ["no-match", "no-match", "no-match"])
    fixture.travel(to: 10, bootID: "boot-2")
    sensor = try fixture.sensor()
    #expect(sensor.queue.isEmpty)
    #expect(sensor.lockedUntil == nil)
    #expect(sensor.lastDeviceUnlock == nil)
    #expect(sensor.consecutiveFailures == 5, "the count itself survives a reboot")
  }

  @Test func answersWithoutATimeAreStale() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(.noMatch, count: 1)
    // A file of release 0.8: a queue without times, before the live answer.
    try fixture.store.update { state in
      var sensor = try state.sensorState()
      sensor.queue = ["match", "match"] + sensor.queue
      try state.setSensorState(sensor)
    }
    #expect(try fixture.sensor().queue == ["no-match"])
  }

  @Test func clearDropsEveryAnswer() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(.match, count: 3)
    #expect(try fixture.controls.clearQueue() == 3)
    #expect(try fixture.sensor().queue.isEmpty)
    #expect(try fixture.controls.clearQueue() == 0)
  }

  @Test func retryUsesNoAttemptAndCountsNothing() throws {
    let fixture = try Fixture.enrolled(.faceID)
    try fixture.controls.queue(.retry, count: 3)
    try fixture.controls.queue(.noMatch, count: 1)
    try fixture.controls.queue(.retry, count: 1)
    try fixture.controls.queue(.match, count: 1)
    let value = try fixture.context().evaluatePolicy(localizedReason: "x")
    #expect(value == (try fixture.domainState()))
    #expect(try fixture.sensor().consecutiveFailures == 0)
  }

  @Test func elevenRetriesEndTheEvaluation() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(.retry, count: 11)
    try fixture.controls.queue(.match, count: 1)
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().queue == ["match"])
    #expect(try fixture.sensor().consecutiveFailures == 0)
  }

  @Test func touchIDShowsTheFallbackAfterOneFailure() throws {
    let fixture = try Fixture.enrolled(.touchID)
    try fixture.controls.queue(.fallback, count: 1)
    try fixture.controls.queue(.match, count: 1)
    #expect(throws: BiometryScriptError.fallbackNotShown) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().queue == ["match"], "the refused answer was dropped")
    try fixture.controls.clearQueue()
    try fixture.controls.queue(.noMatch, count: 1)
    try fixture.controls.queue(.fallback, count: 1)
    #expect(throws: LAError.userFallback) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().consecutiveFailures == 1, "the fallback counts nothing")
  }

  @Test(arguments: [BiometryType.faceID, .opticID])
  func faceAndIrisOfferTheFallbackAfterTwoFailures(type: BiometryType) throws {
    let fixture = try Fixture.enrolled(type)
    try fixture.controls.queue(.noMatch, count: 1)
    try fixture.controls.queue(.fallback, count: 1)
    #expect(throws: BiometryScriptError.fallbackNotShown) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    try fixture.controls.queue(.noMatch, count: 2)
    try fixture.controls.queue(.fallback, count: 1)
    try fixture.controls.queue(.match, count: 1)
    #expect(throws: LAError.userFallback) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().queue == ["match"])
    // Another queued answer is left for the next prompt: the offer closes as failed.
    try fixture.controls.clearQueue()
    try fixture.controls.queue(.noMatch, count: 2)
    try fixture.controls.queue(.match, count: 1)
    #expect(throws: LAError.biometryLockout) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().queue == ["match"])
  }

  @Test func thePromptOffersTheFallbackToThePerson() throws {
    let fixture = try Fixture.enrolled(.faceID)
    let prompter = FakePrompter([.noMatch, .noMatch])
    prompter.choosesFallback = true
    #expect(throws: LAError.userFallback) {
      try fixture.context(prompter: prompter).evaluatePolicy(localizedReason: "x")
    }
    #expect(prompter.fallbackOffers == 1)
    let closing = FakePrompter([.noMatch, .noMatch])
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context(prompter: closing).evaluatePolicy(localizedReason: "x")
    }
    #expect(closing.fallbackOffers == 1)
  }

  @Test(arguments: [(Outcome.appCancel, LAError.appCancel), (.timeout, .appCancel)])
  func appCancelAndTimeout(outcome: Outcome, error: LAError) throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(outcome, count: 1)
    #expect(throws: error) { try fixture.context().evaluatePolicy(localizedReason: "x") }
    #expect(try fixture.sensor().consecutiveFailures == 0)
  }

  @Test func androidLocksFor30SecondsAtEveryFifthAndForGoodAtTheTwentieth() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.setProfile(.android)
    var now = 1000.0
    for round in 1...4 {
      try fixture.controls.queue(.noMatch, count: 5)
      #expect(throws: LAError.authenticationFailed) {
        try fixture.context().evaluatePolicy(localizedReason: "x")
      }
      #expect(throws: LAError.biometryLockout) {
        try fixture.context().evaluatePolicy(localizedReason: "x")
      }
      let sensor = try fixture.sensor()
      #expect(sensor.consecutiveFailures == round * 5)
      if round < 4 {
        #expect(sensor.lockedUntil == now + 30)
        #expect(sensor.lockedOut == false)
        fixture.travel(to: now + 29)
        #expect(throws: LAError.biometryLockout) { try fixture.context().canEvaluatePolicy() }
        now += 30
        fixture.travel(to: now)
        try fixture.context().canEvaluatePolicy()
      } else {
        #expect(sensor.lockedOut, "the twentieth failure locks until the credential")
        #expect(sensor.lockedUntil == nil)
        fixture.travel(to: now + 3600)
        #expect(throws: LAError.biometryLockout) { try fixture.context().canEvaluatePolicy() }
      }
      try fixture.controls.clearQueue()
    }
    try fixture.controls.clearLockout()
    try fixture.context().canEvaluatePolicy()
    #expect(try fixture.sensor().consecutiveFailures == 0)
  }

  @Test func theCredentialResetsAPartialCountAsTheDeviceDoes() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(.noMatch, count: 3)
    try fixture.controls.queue(.noMatch, count: 1)
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().consecutiveFailures == 4)
    try fixture.controls.clearLockout()
    #expect(try fixture.sensor().consecutiveFailures == 0)
  }

  @Test func passcodeClearWipesTheEnrollmentAndTheKeychain() throws {
    let fixture = try Fixture.enrolled()
    let keychain = SimulatedKeychain(store: fixture.store, clock: fixture.clock)
    try keychain.add("vault:1")
    #expect(try keychain.contains("vault:1"))
    let before = try fixture.domainState()
    try fixture.controls.setPasscode(false)
    let sensor = try fixture.sensor()
    #expect(sensor.passcodeSet == false)
    #expect(sensor.enrolled.isEmpty)
    #expect(sensor.enrollmentGeneration == 3)
    #expect(try keychain.contains("vault:1") == false)
    #expect(throws: LAError.passcodeNotSet) { try keychain.add("vault:1") }
    #expect(throws: BiometryControlError.passcodeNotSet) {
      try fixture.controls.enroll(label: nil)
    }
    try fixture.controls.setPasscode(true)
    try fixture.controls.enroll(label: nil)
    #expect(try fixture.domainState() != before)
  }

  @Test func passcodeClearCanKeepTheEnrollment() throws {
    let fixture = try Fixture.enrolled()
    let keychain = SimulatedKeychain(store: fixture.store, clock: fixture.clock)
    try keychain.add("vault:1")
    let before = try fixture.domainState()
    try fixture.controls.setPasscode(false, keepEnrollment: true)
    #expect(try fixture.domainState() == before)
    #expect(try keychain.contains("vault:1") == false)
    try fixture.controls.queue(.match, count: 1)
    #expect(throws: LAError.passcodeNotSet) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().queue == ["match"])
  }

  @Test(arguments: [(BiometryType.touchID, 5), (.faceID, 2), (.opticID, 1)])
  func enrollmentLimits(type: BiometryType, limit: Int) throws {
    let fixture = try Fixture()
    try fixture.controls.setHardware(type)
    for _ in 0..<limit { try fixture.controls.enroll(label: nil) }
    #expect(throws: BiometryControlError.enrollmentFull(type, limit: limit)) {
      try fixture.controls.enroll(label: "one-more")
    }
    #expect(try fixture.sensor().enrolled.count == limit)
  }

  @Test func aRecentDeviceUnlockIsReusedWithoutADomainState() throws {
    let fixture = try Fixture.enrolled()
    try fixture.edit { $0.consecutiveFailures = 2 }
    try fixture.controls.unlockDevice()
    #expect(try fixture.sensor().consecutiveFailures == 0, "the unlock was a match")
    fixture.travel(to: 1060)
    let context = fixture.context(reuse: 60)
    #expect(try context.evaluatePolicy(localizedReason: "x") == nil)
    #expect(context.evaluatedByReuse)
    #expect(context.evaluatedPolicyDomainState == nil)
    // No reuse allowed, or a window too short: a prompt (here none to answer).
    #expect(throws: LAError.notInteractive) {
      try fixture.context(reuse: 0).evaluatePolicy(localizedReason: "x")
    }
    #expect(throws: LAError.notInteractive) {
      try fixture.context(reuse: 59).evaluatePolicy(localizedReason: "x")
    }
    // Windows above five minutes count as five minutes.
    fixture.travel(to: 1300)
    #expect(try fixture.context(reuse: 10_000).evaluatePolicy(localizedReason: "x") == nil)
    fixture.travel(to: 1301)
    #expect(throws: LAError.notInteractive) {
      try fixture.context(reuse: 10_000).evaluatePolicy(localizedReason: "x")
    }
  }

  @Test func theDeviceCannotBeUnlockedWithBiometryWhileLockedOut() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.forceLockout()
    #expect(throws: BiometryControlError.cannotUnlockDevice(.biometryLockout)) {
      try fixture.controls.unlockDevice()
    }
    #expect(try fixture.sensor().lastDeviceUnlock == nil)
  }

  @Test func theObserverSeesEveryAnswerInTheSameWrite() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(.noMatch, count: 1)
    try fixture.controls.queue(.retry, count: 1)
    try fixture.controls.queue(.match, count: 1)
    _ = try fixture.context { state, outcome, run in
      state.journalKeys["seen", default: ""] += "\(outcome.rawValue) \(run.run)/\(run.failures),"
    }.evaluatePolicy(localizedReason: "x")
    #expect(try fixture.store.read().journalKeys["seen"] == "no-match 1/1,retry 1/1,match 1/0,")
  }

  /// Each run of failures has a name of its own, and a forced lockout is a run of its own, so
  /// an app can tell a lockout its own failures made (review of 0.11.0, item 1).
  @Test func everyRunOfFailuresAndEveryForcedLockoutIsNamedAnew() throws {
    let fixture = try Fixture.enrolled()
    #expect(try fixture.sensor().run == FailureRun(run: 0, failures: 0))
    try fixture.controls.queue(.noMatch, count: 2)
    try fixture.controls.queue(.match, count: 1)
    _ = try fixture.context().evaluatePolicy(localizedReason: "x")
    #expect(try fixture.sensor().run == FailureRun(run: 1, failures: 0))
    try fixture.controls.queue(.noMatch, count: 1)
    _ = try? fixture.context().evaluatePolicy(localizedReason: "x")
    #expect(try fixture.sensor().run == FailureRun(run: 2, failures: 1))
    try fixture.controls.forceLockout()
    #expect(try fixture.sensor().run == FailureRun(run: 3, failures: 5))
  }
}
