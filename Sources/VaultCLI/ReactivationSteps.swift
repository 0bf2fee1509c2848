import Biometry
import VaultCore

/// What turns biometric unlock on again from the simulated sensor as it is now.
///
/// A sensor type when the device has none (`biosim hardware none`), a device passcode when none
/// is set (enrolling needs one), a template when none is enrolled, then the activation. Error messages and `vault status` name these steps, so each command they
/// give works when it is run.
struct ReactivationSteps: Equatable {
  /// Whether the device has a sensor (a biometry type other than none).
  var hasSensor = true
  /// Whether the sensor has a device passcode.
  var passcodeSet: Bool
  /// Whether anything is enrolled.
  var enrolled: Bool

  /// The steps for `sensor`.
  init(sensor: SensorState) {
    hasSensor = sensor.biometryType != .none
    passcodeSet = sensor.passcodeSet
    enrolled = !sensor.enrolled.isEmpty
  }

  /// The steps as far as they are known without the sensor.
  init(passcodeSet: Bool, enrolled: Bool) {
    self.passcodeSet = passcodeSet
    self.enrolled = enrolled
  }

  /// The sensor of `context`'s device state as it is now, read without creating anything; nil
  /// when there is none or it cannot be read.
  static func sensor(_ context: Context?) -> SensorState? {
    guard let context, let state = try? context.deviceStore.peek() else { return nil }
    return try? state.sensorState(clock: context.environment.clock)
  }

  /// `choose a sensor ('biosim hardware touch-id'), set a passcode ('biosim passcode set'), enroll
  /// ('biosim enroll'), then run 'vault biometry activate'`, or as much of it as the sensor needs.
  var activation: String {
    var steps: [String] = []
    if !hasSensor { steps.append("choose a sensor ('biosim hardware touch-id')") }
    if !passcodeSet { steps.append("set a passcode ('biosim passcode set')") }
    if !enrolled { steps.append("enroll ('biosim enroll')") }
    return Self.joined(steps, then: "run '\(ExitStatus.reactivate)'")
  }

  /// Before an enrollment: `set a passcode ('biosim passcode set'), then run 'biosim enroll'`,
  /// or `run 'biosim enroll'` when a passcode is set.
  var enrollment: String {
    var steps: [String] = []
    if !hasSensor { steps.append("choose a sensor ('biosim hardware touch-id')") }
    if !passcodeSet { steps.append("set a passcode ('biosim passcode set')") }
    return Self.joined(steps, then: "run 'biosim enroll'")
  }

  private static func joined(_ steps: [String], then last: String) -> String {
    steps.isEmpty ? last : steps.joined(separator: ", ") + ", then " + last
  }
}
