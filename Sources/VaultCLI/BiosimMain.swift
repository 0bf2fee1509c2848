import Biometry
import Foundation
import VaultCore

/// Entry point of the `biosim` executable: the simulated sensor's controls.
public enum BiosimMain {
  /// Runs `biosim` with `arguments` (without the program name) and returns the exit code:
  /// 0 success, 5 invalid value (unknown type, label or count), 17 corrupt device state,
  /// 64 usage error, 1 other failure.
  public static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
    Hardening.apply()
    Output.programName = "biosim"
    let program = BiosimCommands.program
    let invocation: Invocation
    do {
      invocation = try Parser.parse(arguments, program: program)
    } catch let error as UsageError {
      return VaultMain.reportUsage(error, program: program)
    } catch {
      return 1
    }
    if invocation.flag("version") && invocation.path.isEmpty {
      Output.print("biosim \(program.version)\n")
      return 0
    }
    if invocation.flag("help") || invocation.path == ["help"] {
      let words = invocation.flag("help") ? invocation.path : invocation.arguments
      guard let target = program.canonicalPath(words) else {
        return VaultMain.reportUsage(
          UsageError(
            message: "unknown command '\(words.joined(separator: " "))'", path: ["help"]),
          program: program)
      }
      Output.print(Help.text(program, path: target))
      return 0
    }
    let env = VaultEnvironment(variables: environment)
    let store = DeviceStore(environment: env)
    let controls = SensorControls(store: store, clock: env.clock)
    do {
      try dispatch(invocation, controls: controls, store: store, environment: env)
      return 0
    } catch let error as BiometryControlError {
      Output.error("biosim: error: \(error.message)")
      return 5
    } catch let error as VaultError {
      let report = ExitStatus.report(error)
      Output.error("biosim: error: \(report.message)")
      return report.code
    } catch {
      Output.error("biosim: error: \(error)")
      return 1
    }
  }

  static func dispatch(
    _ invocation: Invocation, controls: SensorControls, store: DeviceStore,
    environment: VaultEnvironment
  ) throws {
    let argument = invocation.arguments.first ?? ""
    switch invocation.path {
    case ["status"]:
      // A look creates nothing: a device that was never used shows as a new one.
      let state = try store.peek() ?? DeviceState.fresh()
      Output.print(
        invocation.flag("json") ? statusJSON(state).rendered + "\n" : statusText(state))
    case ["hardware"]:
      guard let type = BiometryType(rawValue: argument) else {
        throw VaultError.invalidInput(
          "unknown sensor type '\(argument)' (none, touch-id, face-id or optic-id)")
      }
      let hadTemplates = try !store.read().sensor.enrolled.isEmpty
      try controls.setHardware(type)
      Output.error(
        "The sensor is now \(type.displayName) (simulated)"
          + (hadTemplates ? "; the enrollment was wiped." : "."))
    case ["availability"]:
      guard let value = SensorAvailability(rawValue: argument) else {
        throw VaultError.invalidInput(
          "unknown availability '\(argument)' (available, unavailable or disconnected)")
      }
      try controls.setAvailability(value)
      Output.error("The sensor is now \(value.rawValue).")
    case ["enroll"]:
      let template = try controls.enroll(label: invocation.value("label"))
      Output.error("Enrolled '\(template.label)'; the domain state changed.")
    case ["unenroll"]:
      if invocation.flag("all") {
        guard invocation.value("label") == nil else {
          throw VaultError.invalidInput("give --label or --all, not both")
        }
        try controls.unenrollAll()
        Output.error("Removed every template; the domain state changed.")
      } else if let label = invocation.value("label") {
        try controls.unenroll(label: label)
        Output.error("Removed '\(label)'; the domain state changed.")
      } else {
        throw VaultError.invalidInput("say which template: --label LABEL or --all")
      }
    case ["next"]:
      guard let outcome = Outcome(rawValue: argument) else {
        throw VaultError.invalidInput(
          "unknown outcome '\(argument)' (match, no-match, cancel, system-cancel or timeout)")
      }
      let countText = invocation.value("count") ?? "1"
      guard let count = Int(countText) else {
        throw VaultError.invalidInput("--count needs a number from 1 to 100, not '\(countText)'")
      }
      try controls.queue(outcome, count: count)
    case ["force-lockout"]:
      try controls.forceLockout()
      Output.error("The sensor is locked out; a correct vault PIN clears it.")
    case ["os-upgrade"]:
      try controls.osUpgrade()
      Output.error("The OS was upgraded; every domain state changed.")
    case ["reset"]:
      try controls.reset()
      // An erased device keeps no session of any vault.
      try? FileManager.default.removeItem(atPath: environment.sessionDirectory)
      Output.error(
        "The device was erased: new device secret, nothing enrolled, every session ended. Each"
          + " vault needs 'vault recover' to set its PIN on this device.")
    default:
      throw VaultError.storage("no handler for '\(invocation.path.joined(separator: " "))'")
    }
  }

  static func domainStatePrefix(_ state: DeviceState) -> String? {
    guard let secret = try? state.secret(),
      let value = DomainState.compute(
        sensor: state.sensor, deviceSecret: secret, appID: SensorGate.appID)
    else { return nil }
    return Array(value.prefix(8)).hex
  }

  static func statusText(_ state: DeviceState) -> String {
    let sensor = state.sensor
    let type = BiometryType(rawValue: sensor.hardware)?.displayName ?? sensor.hardware
    let labels = sensor.enrolled.map(\.label).joined(separator: ", ")
    return """
      sensor:        \(type) (simulated)
      availability:  \(sensor.availability)
      enrolled:      \(sensor.enrolled.count)\(labels.isEmpty ? "" : " (\(labels))")
      generation:    \(sensor.enrollmentGeneration)
      os epoch:      \(sensor.osEpoch)
      lockout:       \(sensor.lockedOut ? "yes" : "no") (\(sensor.consecutiveFailures) consecutive failures)
      queue:         \(sensor.queue.isEmpty ? "empty" : sensor.queue.joined(separator: ", "))
      domain state:  \(domainStatePrefix(state).map { $0 + "…" } ?? "nil")

      """
  }

  static func statusJSON(_ state: DeviceState) -> JSONOutput {
    let sensor = state.sensor
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
      ("domain_state_prefix", domainStatePrefix(state).map { .string($0) } ?? .null),
    ])
  }
}
