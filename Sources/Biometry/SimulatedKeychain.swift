import VaultFormat

/// The simulated keychain's items stored "when passcode set, this device only"
/// (`kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`): presence markers that removing the
/// device passcode deletes, as the Secure Enclave does on iOS and as Android invalidates keys
/// when the secure lock screen is removed (`KeyPermanentlyInvalidatedException`).
public struct SimulatedKeychain: Sendable {
  private let store: DeviceStore
  private let clock: Clock

  /// The keychain of the device in `store`.
  public init(store: DeviceStore, clock: Clock) {
    self.store = store
    self.clock = clock
  }

  /// Adds (or keeps) the item `id`.
  ///
  /// - Throws: `LAError.passcodeNotSet` when the device has no passcode (such an item cannot be
  ///   stored then); `VaultError` when the device store cannot be read or written.
  public func add(_ id: String) throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      guard sensor.passcodeSet else { throw LAError.passcodeNotSet }
      var items = sensor.keychain ?? []
      if !items.contains(id) { items.append(id) }
      sensor.keychain = items
    }
  }

  /// True when the item `id` is stored.
  ///
  /// - Throws: `VaultError` when the device store cannot be read.
  public func contains(_ id: String) throws -> Bool {
    try store.readSensor(clock: clock).sensor.holdsKeychainItem(id)
  }

  /// Removes the item `id`, if stored.
  ///
  /// - Throws: `VaultError` when the device store cannot be read or written.
  public func delete(_ id: String) throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      if sensor.keychain != nil { sensor.keychain?.removeAll { $0 == id } }
    }
  }
}
