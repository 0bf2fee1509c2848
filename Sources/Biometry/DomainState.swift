import VaultCrypto
import VaultFormat

/// The simulated `evaluatedPolicyDomainState`: an opaque value that changes with every
/// enrollment change, per app.
public enum DomainState {
  /// The domain-separation label that starts the hashed message (`vault(5)` lists it with the
  /// labels of `DomainLabel`).
  public static let label = "biosim.domain.v1"

  /// The application identifier `vault` evaluates for: part of every domain state it seals, so
  /// it must never change (as an app's bundle id on Apple platforms).
  public static let vaultAppID = "dev.vault.cli"

  /// The domain state of `sensor` for `appID`, or nil when nothing is enrolled or there is no
  /// hardware.
  ///
  /// 32 bytes of keyed BLAKE2b (`crypto_generichash`, RFC 7693) with the device secret as key over
  /// `"biosim.domain.v1" || u8(type code) || u64le(enrollmentGeneration) || u32le(osEpoch) ||
  /// utf8(appID)`. It changes exactly when the enrollment history, the biometry type, the OS epoch,
  /// the device or the app changes; adding then removing a template gives a new value because the
  /// generation only grows.
  public static func compute(sensor: SensorState, deviceSecret: DeviceSecret, appID: String)
    -> [UInt8]?
  {
    let type = sensor.biometryType
    guard type != .none, !sensor.enrolled.isEmpty else { return nil }
    let parts: [[UInt8]] = [
      Array(label.utf8),
      [type.code],
      littleEndian(sensor.enrollmentGeneration),
      littleEndian(sensor.osEpoch),
      Array(appID.utf8),
    ]
    return GenericHash.keyed(key: deviceSecret.bytes, parts: parts, outputLength: 32)
  }

  private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }
}
