import FoundationEssentials
import Glibc
import VaultFormat

extension DeviceState {
  /// The simulated sensor kept in this device state; a new device's sensor when none is kept yet.
  ///
  /// As stored: use `sensorState(clock:)` for what holds now.
  ///
  /// - Throws: `VaultError.integrity` when the stored section is not a sensor state.
  public func sensorState() throws -> SensorState {
    guard let sensor else { return SensorState() }
    do {
      return try JSONDecoder().decode(SensorState.self, from: JSONEncoder().encode(sensor))
    } catch {
      throw VaultError.integrity(.simulatedSensor(.malformedState))
    }
  }

  /// The simulated sensor as it is at `clock`'s boot time: expired answers, an ended timed
  /// lockout and an old device unlock dropped (`SensorState.refreshed`).
  ///
  /// - Throws: as `sensorState()`.
  public func sensorState(clock: Clock) throws -> SensorState {
    try sensorState().refreshed(now: clock.bootNow, bootID: clock.bootID)
  }

  /// Keeps `state` as this device's simulated sensor.
  ///
  /// - Throws: `VaultError.storage` when it cannot be encoded (it always can).
  public mutating func setSensorState(_ state: SensorState) throws {
    do {
      sensor = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(state))
    } catch {
      throw VaultError.storage(.sensorStateNotEncodable)
    }
  }
}

extension DeviceStore {
  /// The simulated sensor as it is now (see `DeviceState.sensorState(clock:)`) and the device
  /// secret, read without the lock.
  ///
  /// - Throws: the errors of `read()` and `sensorState()`.
  public func readSensor(clock: Clock) throws -> (sensor: SensorState, secret: DeviceSecret) {
    let state = try read()
    return (try state.sensorState(clock: clock), state.deviceSecret)
  }

  /// Runs `body` on the simulated sensor as it is now, under the store's lock, and writes it back.
  ///
  /// - Throws: the errors of `update`, `sensorState()` and `body` (then nothing is written).
  public func updateSensor<R>(
    clock: Clock, _ body: (inout SensorState, DeviceSecret) throws -> R
  ) throws -> R {
    try updateDevice(clock: clock) { state, sensor in try body(&sensor, state.deviceSecret) }
  }

  /// Runs `body` on the whole device state and its simulated sensor as it is now, under the
  /// store's lock, and writes both back: what the vault counts about an attempt is written in
  /// the same write as the sensor's own count.
  ///
  /// - Throws: the errors of `update`, `sensorState()` and `body` (then nothing is written).
  public func updateDevice<R>(
    clock: Clock, _ body: (inout DeviceState, inout SensorState) throws -> R
  ) throws -> R {
    try update { state in
      var sensor = try state.sensorState(clock: clock)
      let result = try body(&state, &sensor)
      try state.setSensorState(sensor)
      return result
    }
  }
}
