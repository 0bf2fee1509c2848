import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// Entry point of the `biosim` executable: the simulated sensor's controls.
public enum BiosimMain {
  /// Runs `biosim` with `arguments` (without the program name) and returns the exit code:
  /// 0 success, 5 invalid value (unknown label, both or neither of --label and --all), 17 corrupt
  /// device state, 64 usage error (an unknown command, option, type, state or outcome, a count
  /// out of range), 1 other failure.
  ///
  /// - Parameter terminal: the terminal to ask on; nil for none (the in-process test harness).
  public static func run(
    _ arguments: [String], environment: [String: String], terminal: String? = "/dev/tty"
  ) -> Int32 {
    Hardening.apply()
    return RunScope.$current.withValue(RunScope(programName: "biosim", terminalPath: terminal)) {
      CommandRunner.run(arguments, program: BiosimCommands.program, environment: environment)
    }
  }
}

/// What biosim's commands share: the sensor controls, and the status in text or JSON.
enum BiosimSupport {
  static func controls(_ context: Context) -> SensorControls {
    SensorControls(store: context.deviceStore, clock: context.environment.clock)
  }

  static func domainStatePrefix(_ sensor: SensorState, _ secret: DeviceSecret) -> String? {
    DomainState.compute(sensor: sensor, deviceSecret: secret, appID: DomainState.vaultAppID)
      .map { Array($0.prefix(8)).hex }
  }

  static func statusText(_ state: DeviceState, _ clock: Clock) throws -> String {
    let sensor = try state.sensorState(clock: clock)
    let now = clock.bootNow
    let domain = domainStatePrefix(sensor, state.deviceSecret).map { $0 + "…" } ?? "nil"
    let type =
      BiometryType(rawValue: sensor.hardware)?.displayName ?? Output.printable(sensor.hardware)
    let labels = Output.printable(sensor.enrolled.map(\.label).joined(separator: ", "))
    let pending = sensor.pendingAnswers(now: now)
    let queue =
      pending.isEmpty
      ? "empty"
      : pending.map {
        "\(Output.printable($0.outcome)) (\(Int($0.secondsLeft.rounded(.up))) s left)"
      }
      .joined(separator: ", ")
    var lockout = sensor.lockedOut ? "yes, until the PIN" : "no"
    if !sensor.lockedOut, let left = sensor.timedLockoutLeft(now: now) {
      lockout = "yes, \(Int(left.rounded(.up))) s left (or the PIN)"
    }
    let unlocked = sensor.lastDeviceUnlock.map { "\(Int((now - $0).rounded(.down))) s ago" } ?? "no"
    return """
      sensor:        \(type)\(sensor.external ? ", removable" : "") (simulated)
      availability:  \(Output.printable(sensor.availability))
      passcode:      \(sensor.passcodeSet ? "set" : "not set")
      profile:       \(Output.printable(sensor.profile))
      enrolled:      \(sensor.enrolled.count)\(labels.isEmpty ? "" : " (\(labels))")
      generation:    \(sensor.enrollmentGeneration)
      os epoch:      \(sensor.osEpoch)
      lockout:       \(lockout) (\(sensor.consecutiveFailures) consecutive failures)
      queue:         \(queue)
      device unlock: \(unlocked)
      domain state:  \(domain)

      """
  }

  static func statusJSON(_ state: DeviceState, _ clock: Clock) throws -> JSONOutput {
    let sensor = try state.sensorState(clock: clock)
    let now = clock.bootNow
    let domain = domainStatePrefix(sensor, state.deviceSecret)
    let pending = sensor.pendingAnswers(now: now)
    return .object([
      ("type", .string(sensor.hardware)),
      ("simulated", .bool(true)),
      ("external", .bool(sensor.external)),
      ("availability", .string(sensor.availability)),
      ("passcode_set", .bool(sensor.passcodeSet)),
      ("profile", .string(sensor.profile)),
      (
        "enrolled",
        .array(
          sensor.enrolled.map {
            .object([("label", .string($0.label)), ("enrolled_at", .string($0.enrolledAt))])
          })
      ),
      ("enrollment_generation", .number(Int(sensor.enrollmentGeneration))),
      ("os_epoch", .number(Int(sensor.osEpoch))),
      ("consecutive_failures", .number(sensor.consecutiveFailures)),
      ("locked_out", .bool(sensor.isLockedOut)),
      (
        "lockout_seconds_left",
        sensor.lockedOut
          ? .null : sensor.timedLockoutLeft(now: now).map { .number(Int($0.rounded(.up))) } ?? .null
      ),
      ("queue", .array(pending.map { .string($0.outcome) })),
      ("queue_seconds_left", .array(pending.map { .number(Int($0.secondsLeft.rounded(.up))) })),
      (
        "device_unlocked_seconds_ago",
        sensor.lastDeviceUnlock.map { .number(Int((now - $0).rounded(.down))) } ?? .null
      ),
      ("keychain_items", .number(sensor.keychain?.count ?? 0)),
      ("domain_state_prefix", domain.map { .string($0) } ?? .null),
    ])
  }
}
