import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim status`.
struct BiosimStatusCommand: VaultCommand {
  static let about = CommandAbout(
    "status", "Show the sensor's state.")

  @FlagParameter(Keys.json) var json

  func run(_ context: Context) throws -> Int32 {
    // A look creates nothing: a device that was never used shows as a new one.
    let state = try context.deviceStore.peek() ?? DeviceState.fresh()
    // A queued value no control writes is a corrupt state, as an evaluation finds it (exit 17).
    if let sensor = try? state.sensorState(clock: context.environment.clock),
      let unknown = sensor.queue.first(where: { Outcome(rawValue: $0) == nil })
    {
      throw VaultError.integrity(.simulatedSensor(.unknownOutcome(unknown)))
    }
    Output.print(
      json
        ? try BiosimSupport.statusJSON(state, context.environment.clock).rendered + "\n"
        : try BiosimSupport.statusText(state, context.environment.clock))
    return ExitCode.success.rawValue
  }
}
