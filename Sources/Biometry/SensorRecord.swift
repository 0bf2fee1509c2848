import FoundationEssentials
import Glibc
import VaultCore

extension DeviceState {
  /// The simulated sensor kept in this device state; a new device's sensor when none is kept yet.
  ///
  /// - Throws: `VaultError.integrity` when the stored section is not a sensor state.
  public func sensorState() throws -> SensorState {
    guard let sensor else { return SensorState() }
    do {
      return try JSONDecoder().decode(SensorState.self, from: JSONEncoder().encode(sensor))
    } catch {
      throw VaultError.integrity("the simulated sensor's state in the device state is malformed")
    }
  }

  /// Keeps `state` as this device's simulated sensor.
  ///
  /// - Throws: `VaultError.storage` when it cannot be encoded (it always can).
  public mutating func setSensorState(_ state: SensorState) throws {
    do {
      sensor = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(state))
    } catch {
      throw VaultError.storage("the simulated sensor's state cannot be encoded")
    }
  }
}

extension DeviceStore {
  /// The simulated sensor and the device secret, read without the lock.
  ///
  /// - Throws: the errors of `read()` and `sensorState()`.
  public func readSensor() throws -> (sensor: SensorState, secret: DeviceSecret) {
    let state = try read()
    return (try state.sensorState(), state.deviceSecret)
  }

  /// Runs `body` on the simulated sensor under the store's lock and writes it back.
  ///
  /// - Throws: the errors of `update`, `sensorState()` and `body` (then nothing is written).
  public func updateSensor<R>(_ body: (inout SensorState, DeviceSecret) throws -> R) throws -> R {
    try update { state in
      var sensor = try state.sensorState()
      let result = try body(&sensor, state.deviceSecret)
      try state.setSensorState(sensor)
      return result
    }
  }
}
