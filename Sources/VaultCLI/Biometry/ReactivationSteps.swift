import Biometry
import VaultCore
import VaultFormat

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

  /// The hint for a locked command whose `vault unlock` would be refused.
  ///
  /// When biometric unlock is disabled or not activated for the context's vault on this device:
  /// the steps that turn it on, then the unlock. Nil when an unlock would be asked as usual, or
  /// nothing can be read.
  ///
  /// A session ended by an enrollment change leaves its later commands locked (exit 10,
  /// biometry.md section 8, scenario 14); `vault unlock` alone would then exit 15.
  static func beforeUnlock(_ context: Context?) -> String? {
    guard let context, let device = try? context.deviceStore.peek(),
      case .current(let vault)? = try? Vault.openAny(
        path: context.vaultPath, environment: context.environment),
      vault.isBound(to: device.deviceSecret)
    else { return nil }
    let state: String
    switch VaultAccess.biometryStatus(of: vault, device: device) {
    case .disabled: state = "disabled"
    case .notActivated: state = "not activated"
    case .active, .off: return nil
    }
    let steps = sensor(context).map(Self.init(sensor:)) ?? Self(passcodeSet: true, enrolled: true)
    return "biometric unlock is \(state) for this vault: \(steps.activation);"
      + " then unlock with: vault unlock"
  }

  private static func joined(_ steps: [String], then last: String) -> String {
    steps.isEmpty ? last : steps.joined(separator: ", ") + ", then " + last
  }
}
