import Biometry
import Testing
import VaultCore
import VaultFormat

@Suite struct EvaluationTests {
  @Test(arguments: [(BiometryType.touchID, 3), (.faceID, 2), (.opticID, 2)])
  func attemptsExhausted(type: BiometryType, attempts: Int) throws {
    let fixture = try Fixture.enrolled(type)
    try fixture.controls.queue(.noMatch, count: 4)
    let context = fixture.context()
    #expect(throws: LAError.authenticationFailed) {
      try context.evaluatePolicy(localizedReason: "unlock")
    }
    let sensor = try fixture.sensor()
    #expect(sensor.consecutiveFailures == attempts)
    #expect(sensor.queue.count == 4 - attempts)
    #expect(sensor.lockedOut == false)
    #expect(context.evaluatedPolicyDomainState == nil)
  }

  @Test func matchAfterAFailureResetsTheCount() throws {
    let fixture = try Fixture.enrolled(.touchID)
    try fixture.controls.queue(.noMatch, count: 2)
    try fixture.controls.queue(.match, count: 1)
    let context = fixture.context()
    let value = try context.evaluatePolicy(localizedReason: "unlock")
    #expect(value == (try fixture.domainState()))
    #expect(value?.count == 32)
    #expect(context.evaluatedPolicyDomainState == value)
    #expect(try fixture.sensor().consecutiveFailures == 0)
    #expect(try fixture.sensor().queue.isEmpty)
  }

  @Test func fiveConsecutiveFailuresAcrossEvaluationsLockOut() throws {
    let fixture = try Fixture.enrolled(.faceID)
    try fixture.controls.queue(.noMatch, count: 6)
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().consecutiveFailures == 2)
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().consecutiveFailures == 4)
    #expect(throws: LAError.biometryLockout) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    var sensor = try fixture.sensor()
    #expect(sensor.consecutiveFailures == 5)
    #expect(sensor.lockedOut)
    #expect(sensor.queue == ["no-match"])

    #expect(throws: LAError.biometryLockout) { try fixture.context().canEvaluatePolicy() }
    #expect(throws: LAError.biometryLockout) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().queue == ["no-match"])

    try fixture.controls.clearLockout()
    sensor = try fixture.sensor()
    #expect(sensor.consecutiveFailures == 0)
    #expect(sensor.lockedOut == false)
    try fixture.context().canEvaluatePolicy()
  }

  @Test func touchIDLocksOnTheFifthFailureInsideAnEvaluation() throws {
    let fixture = try Fixture.enrolled(.touchID)
    try fixture.controls.queue(.noMatch, count: 5)
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(throws: LAError.biometryLockout) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().consecutiveFailures == 5)
    #expect(try fixture.sensor().lockedOut)
  }

  @Test(arguments: [
    (Outcome.cancel, LAError.userCancel), (.systemCancel, .systemCancel), (.timeout, .appCancel),
  ])
  func cancellationsLeaveTheCounters(outcome: Outcome, error: LAError) throws {
    let fixture = try Fixture.enrolled(.touchID)
    try fixture.edit { sensor in sensor.consecutiveFailures = 3 }
    try fixture.controls.queue(.noMatch, count: 1)
    try fixture.controls.queue(outcome, count: 1)
    try fixture.controls.queue(.match, count: 1)
    let context = fixture.context()
    #expect(throws: error) { try context.evaluatePolicy(localizedReason: "x") }
    let sensor = try fixture.sensor()
    #expect(sensor.consecutiveFailures == 4)
    #expect(sensor.lockedOut == false)
    #expect(sensor.queue == ["match"])
    #expect(context.evaluatedPolicyDomainState == nil)
  }

  @Test func queueIsFirstInFirstOut() throws {
    let fixture = try Fixture.enrolled(.touchID)
    try fixture.controls.queue(.noMatch, count: 1)
    try fixture.controls.queue(.cancel, count: 1)
    try fixture.controls.queue(.match, count: 1)
    #expect(try fixture.sensor().queue == ["no-match", "cancel", "match"])
    #expect(throws: LAError.userCancel) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().queue == ["match"])
    #expect(try fixture.sensor().consecutiveFailures == 1)
    _ = try fixture.context().evaluatePolicy(localizedReason: "x")
    #expect(try fixture.sensor().queue.isEmpty)
    #expect(try fixture.sensor().consecutiveFailures == 0)
  }

  @Test func emptyQueueWithoutPrompterIsNotInteractive() throws {
    let fixture = try Fixture.enrolled(.faceID)
    #expect(throws: LAError.notInteractive) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    // A queue that runs dry mid-evaluation: the failure counts, and with no one left to answer
    // the evaluation ends as failed (biometry.md section 8, row 13).
    try fixture.controls.queue(.noMatch, count: 1)
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().consecutiveFailures == 1)
  }

  @Test func interactionNotAllowedNeverPrompts() throws {
    let fixture = try Fixture.enrolled(.faceID)
    let prompter = FakePrompter([.match])
    let context = fixture.context(prompter: prompter, interactionNotAllowed: true)
    #expect(throws: LAError.notInteractive) { try context.evaluatePolicy(localizedReason: "x") }
    #expect(prompter.calls.isEmpty)
    // Queued outcomes still answer without interaction.
    try fixture.controls.queue(.match, count: 1)
    #expect(try context.evaluatePolicy(localizedReason: "x") == (try fixture.domainState()))
    #expect(prompter.calls.isEmpty)
  }

  @Test func prompterWithoutTerminalIsNotInteractive() throws {
    let fixture = try Fixture.enrolled(.faceID)
    let prompter = FakePrompter([nil])
    #expect(throws: LAError.notInteractive) {
      try fixture.context(prompter: prompter).evaluatePolicy(localizedReason: "x")
    }
    #expect(prompter.calls.count == 1)
    #expect(try fixture.sensor().consecutiveFailures == 0)
  }

  @Test func prompterIsAskedWhenTheQueueIsEmpty() throws {
    let fixture = try Fixture.enrolled(.touchID)
    try fixture.controls.queue(.noMatch, count: 1)
    let prompter = FakePrompter([.noMatch, .match])
    let context = fixture.context(prompter: prompter)
    let value = try context.evaluatePolicy(localizedReason: "Unlock the vault")
    #expect(value == (try fixture.domainState()))
    #expect(
      prompter.calls == [
        .init(reason: "Unlock the vault", type: .touchID, attempt: 2, of: 3),
        .init(reason: "Unlock the vault", type: .touchID, attempt: 3, of: 3),
      ])
    // Each prompt is told of the failed attempt before it, queued or answered (item 16).
    #expect(prompter.previousOutcomes == [.noMatch, .noMatch])
    #expect(try fixture.sensor().consecutiveFailures == 0)
  }

  @Test func prompterFailuresCountAndCancelsDoNot() throws {
    let fixture = try Fixture.enrolled(.faceID)
    let failing = FakePrompter([.noMatch, .noMatch])
    #expect(throws: LAError.authenticationFailed) {
      try fixture.context(prompter: failing).evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().consecutiveFailures == 2)
    let cancelling = FakePrompter([.systemCancel])
    #expect(throws: LAError.systemCancel) {
      try fixture.context(prompter: cancelling).evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().consecutiveFailures == 2)
  }

  @Test func invalidatedContextRefusesEveryCall() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(.match, count: 1)
    let context = fixture.context()
    try context.canEvaluatePolicy()
    context.invalidate()
    #expect(context.evaluatedPolicyDomainState == nil)
    #expect(throws: LAError.invalidContext) { try context.canEvaluatePolicy() }
    #expect(throws: LAError.invalidContext) { try context.evaluatePolicy(localizedReason: "x") }
    #expect(try fixture.sensor().queue == ["match"])
  }

  @Test func invalidateDuringThePromptIsAppCancel() throws {
    let fixture = try Fixture.enrolled()
    let holder = ContextHolder()
    let prompter = FakePrompter([.match]) { holder.context?.invalidate() }
    let context = fixture.context(prompter: prompter)
    holder.context = context
    #expect(throws: LAError.appCancel) { try context.evaluatePolicy(localizedReason: "x") }
    #expect(context.evaluatedPolicyDomainState == nil)
    #expect(try fixture.sensor().consecutiveFailures == 0)
  }

  @Test func emptyReasonIsAProgrammingError() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(.match, count: 1)
    #expect(throws: BiometryError.emptyReason) {
      try fixture.context().evaluatePolicy(localizedReason: "")
    }
    #expect(try fixture.sensor().queue == ["match"])
  }

  @Test func unknownQueuedOutcomeIsACorruptState() throws {
    let fixture = try Fixture.enrolled()
    try fixture.controls.queue(.match, count: 1)
    try fixture.edit { sensor in sensor.queue = ["wobble"] }
    #expect(
      throws: VaultError.integrity(.simulatedSensor(.unknownOutcome("wobble")))
    ) {
      try fixture.context().evaluatePolicy(localizedReason: "x")
    }
    #expect(try fixture.sensor().queue == ["wobble"])
  }
}

/// Lets a prompter reach the context that asked it.
final class ContextHolder: @unchecked Sendable {
  var context: SimulatedContext?
}
