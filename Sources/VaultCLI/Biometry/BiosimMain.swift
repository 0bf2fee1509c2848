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

/// The handlers of `biosim`'s commands.
enum BiosimCommandsRun {
  static func controls(_ context: Context) -> SensorControls {
    SensorControls(store: context.deviceStore, clock: context.environment.clock)
  }

  static func status(_ context: Context) throws {
    // A look creates nothing: a device that was never used shows as a new one.
    let state = try context.deviceStore.peek() ?? DeviceState.fresh()
    // A queued value no control writes is a corrupt state, as an evaluation finds it (exit 17).
    if let sensor = try? state.sensorState(clock: context.environment.clock),
      let unknown = sensor.queue.first(where: { Outcome(rawValue: $0) == nil })
    {
      throw VaultError.integrity(
        "the simulated sensor's queue holds an unknown outcome \(unknown.debugDescription)")
    }
    Output.print(
      context.flag(Keys.json)
        ? try statusJSON(state, context.environment.clock).rendered + "\n"
        : try statusText(state, context.environment.clock))
  }

  static func hardware(_ context: Context) throws {
    let type = try context.argument(Keys.sensorType)
    let external = context.flag(Keys.external)
    guard !(external && type == .none) else {
      throw UsageError(message: "--external needs a sensor type, not none", path: ["hardware"])
    }
    let before = try controls(context).status()
    try controls(context).setHardware(type, external: external)
    let wiped = before.biometryType != type && !before.enrolled.isEmpty
    Output.error(
      "The sensor is now \(external ? "a removable " : "")\(type.displayName) (simulated)"
        + (wiped ? "; the enrollment was wiped." : "."))
  }

  static func passcode(_ context: Context) throws {
    let action = try context.argument(Keys.passcodeAction)
    let keep = context.flag(Keys.keepEnrollment)
    guard action == .clear || !keep else {
      throw UsageError(message: "--keep-enrollment goes with clear", path: ["passcode"])
    }
    let before = try controls(context).status()
    try controls(context).setPasscode(action == .set, keepEnrollment: keep)
    switch action {
    case .set:
      Output.error(before.passcodeSet ? "A passcode was already set." : "A passcode is set.")
    case .clear:
      guard before.passcodeSet else {
        Output.error("No passcode was set.")
        return
      }
      let wiped = !keep && !before.enrolled.isEmpty
      Output.error(
        "The passcode was removed: biometry cannot be used without one, and every keychain item"
          + " bound to it is gone" + (wiped ? "; the enrollment was wiped." : "."))
    }
  }

  static func profile(_ context: Context) throws {
    let profile = try context.argument(Keys.profile)
    try controls(context).setProfile(profile)
    switch profile {
    case .apple:
      Output.error("Apple's lockout: 5 consecutive failed matches lock biometry until the PIN.")
    case .android:
      Output.error(
        "Android's lockout: every 5th consecutive failed match locks biometry for 30 s, the 20th"
          + " until the PIN.")
    }
  }

  static func unlockDevice(_ context: Context) throws {
    try controls(context).unlockDevice()
    Output.error(
      "The device was unlocked with biometry; a vault that allows reuse accepts it for"
        + " \(Int(SensorState.maximumReuse)) s at most.")
  }

  static func credentialVerified(_ context: Context) throws {
    let before = try controls(context).status()
    guard before.passcodeSet else {
      throw VaultError.invalidInput("no device passcode is set; set one with 'biosim passcode set'")
    }
    try controls(context).clearLockout()
    Output.error(
      before.isLockedOut
        ? "The passcode was entered; the lockout ended." : "The passcode was entered.")
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
    let outcome = try context.argumentIfGiven(Keys.outcome)
    if context.flag(Keys.clearQueue) {
      guard outcome == nil, try context.value(Keys.outcomeCount) == nil else {
        throw UsageError(message: "--clear takes no OUTCOME and no --count", path: ["next"])
      }
      let dropped = try controls(context).clearQueue()
      Output.error(
        dropped == 0
          ? "No answer was queued."
          : "Dropped \(dropped) queued answer\(dropped == 1 ? "" : "s").")
      return
    }
    guard let outcome else {
      throw UsageError(message: "say which answer to queue, or --clear", path: ["next"])
    }
    let count = try context.value(Keys.outcomeCount) ?? 1
    try controls(context).queue(outcome, count: count)
    let seconds = Int(SensorState.answerValidity)
    Output.error(
      count == 1
        ? "Queued \(outcome.rawValue): the next prompt takes it within \(seconds) s."
        : "Queued \(count) answers (\(outcome.rawValue)): the next prompts take them within"
          + " \(seconds) s.")
  }

  static func forceLockout(_ context: Context) throws {
    try controls(context).forceLockout()
    Output.error(
      "The sensor is locked out; a correct vault PIN or 'biosim credential-verified' clears it.")
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
