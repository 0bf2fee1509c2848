import Biometry
import FoundationEssentials
import Glibc
import VaultCore

/// Entry point of the `biosim` executable: the simulated sensor's controls.
public enum BiosimMain {
  /// Runs `biosim` with `arguments` (without the program name) and returns the exit code:
  /// 0 success, 5 invalid value (unknown label, both or neither of --label and --all), 17 corrupt
  /// device state, 64 usage error (an unknown command, option, type, state or outcome, a count
  /// out of range), 1 other failure.
  public static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
    Hardening.apply()
    Output.programName = "biosim"
    return CommandRunner.run(arguments, program: BiosimCommands.program, environment: environment)
  }
}

/// The handlers of `biosim`'s commands.
enum BiosimCommandsRun {
  static func controls(_ context: Context) -> SensorControls {
    SensorControls(store: context.deviceStore, clock: context.environment.clock)
  }

  static func status(_ context: Context) throws {
    // A look creates nothing: a device that was never used shows as a new one.
    let state = try context.deviceStore.peek() ?? DeviceState.fresh()
    Output.print(
      context.flag(Keys.json) ? try statusJSON(state).rendered + "\n" : try statusText(state))
  }

  static func hardware(_ context: Context) throws {
    let type = try context.argument(Keys.sensorType)
    let before = try context.deviceStore.readSensor().sensor
    try controls(context).setHardware(type)
    let wiped = before.biometryType != type && !before.enrolled.isEmpty
    Output.error(
      "The sensor is now \(type.displayName) (simulated)"
        + (wiped ? "; the enrollment was wiped." : "."))
  }

  static func availability(_ context: Context) throws {
    let value = try context.argument(Keys.availability)
    try controls(context).setAvailability(value)
    Output.error("The sensor is now \(value.rawValue).")
  }

  static func enroll(_ context: Context) throws {
    let template = try controls(context).enroll(label: context.value(Keys.label)?.text)
    Output.error("Enrolled '\(template.label)'; the domain state changed.")
  }

  static func unenroll(_ context: Context) throws {
    let label = try context.value(Keys.unenrollLabel)
    if context.flag(Keys.all) {
      guard label == nil else {
        throw UsageError(message: "give --label or --all, not both", path: ["unenroll"])
      }
      try controls(context).unenrollAll()
      Output.error("Removed every template; the domain state changed.")
    } else if let label {
      try controls(context).unenroll(label: label.text)
      Output.error("Removed '\(label.text)'; the domain state changed.")
    } else {
      throw UsageError(message: "say which template: --label LABEL or --all", path: ["unenroll"])
    }
  }

  static func next(_ context: Context) throws {
    let outcome = try context.argument(Keys.outcome)
    try controls(context).queue(outcome, count: context.value(Keys.outcomeCount) ?? 1)
  }

  static func forceLockout(_ context: Context) throws {
    try controls(context).forceLockout()
    Output.error("The sensor is locked out; a correct vault PIN clears it.")
  }

  static func osUpgrade(_ context: Context) throws {
    try controls(context).osUpgrade()
    Output.error("The OS was upgraded; every domain state changed.")
  }

  static func reset(_ context: Context) throws {
    // On a terminal, erasing the device is confirmed first: every vault then needs its recovery
    // code on this device.
    if isatty(0) == 1, !context.flag(Keys.yes), let terminal = context.terminal {
      terminal.say(
        "This erases the simulated device: a new device secret, nothing enrolled, no PIN"
          + " counters. Every vault then needs its recovery code here ('vault recover').\n")
      let answer = try terminal.readVisible(prompt: "Type 'erase' to go on: ")
      guard answer == "erase" else {
        throw VaultError.cancelled("nothing was erased")
      }
    }
    try controls(context).reset()
    // An erased device keeps no session of any vault, and the agent holds none of them.
    AgentClient(environment: context.environment).forget(vaultID: nil, vaultPath: nil)
    try? FileManager.default.removeItem(atPath: context.environment.sessionDirectory)
    Output.error(
      "The device was erased: new device secret, nothing enrolled, every session ended. Each"
        + " vault needs 'vault recover' to set its PIN on this device.")
  }

  static func domainStatePrefix(_ sensor: SensorState, _ secret: DeviceSecret) -> String? {
    DomainState.compute(sensor: sensor, deviceSecret: secret, appID: DomainState.vaultAppID)
      .map { Array($0.prefix(8)).hex }
  }

  static func statusText(_ state: DeviceState) throws -> String {
    let sensor = try state.sensorState()
    let domain = domainStatePrefix(sensor, state.deviceSecret).map { $0 + "…" } ?? "nil"
    let type =
      BiometryType(rawValue: sensor.hardware)?.displayName ?? Output.printable(sensor.hardware)
    let labels = Output.printable(sensor.enrolled.map(\.label).joined(separator: ", "))
    return """
      sensor:        \(type) (simulated)
      availability:  \(Output.printable(sensor.availability))
      enrolled:      \(sensor.enrolled.count)\(labels.isEmpty ? "" : " (\(labels))")
      generation:    \(sensor.enrollmentGeneration)
      os epoch:      \(sensor.osEpoch)
      lockout:       \(sensor.lockedOut ? "yes" : "no") (\(sensor.consecutiveFailures) consecutive failures)
      queue:         \(sensor.queue.isEmpty ? "empty" : Output.printable(sensor.queue.joined(separator: ", ")))
      domain state:  \(domain)

      """
  }

  static func statusJSON(_ state: DeviceState) throws -> JSONOutput {
    let sensor = try state.sensorState()
    let domain = domainStatePrefix(sensor, state.deviceSecret)
    return .object([
      ("type", .string(sensor.hardware)),
      ("simulated", .bool(true)),
      ("availability", .string(sensor.availability)),
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
      ("locked_out", .bool(sensor.lockedOut)),
      ("queue", .array(sensor.queue.map { .string($0) })),
      ("domain_state_prefix", domain.map { .string($0) } ?? .null),
    ])
  }
}
