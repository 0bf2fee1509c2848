import FoundationEssentials
import Glibc
import VaultCrypto

/// Biometric activation state kept in the header.
///
/// `state`, `changed_at` and `reason` are in the clear (so `status` can show them without the
/// key) and authenticated by the header MAC; the domain state, the biometry type and the
/// activation time are in `seal`, an AEAD box under the `biometry` subkey.
public struct BiometryRecord: Codable, Equatable, Sendable {
  /// Active or disabled.
  public var state: BiometryState
  /// When the state last changed, ISO 8601 UTC.
  public var changedAt: String
  /// Why it was disabled (nil while active).
  public var reason: String?
  /// The sealed `BiometricSeal` (base64 AEAD box), nil when disabled.
  public var seal: String?

  enum CodingKeys: String, CodingKey {
    case state, reason, seal
    case changedAt = "changed_at"
  }

  /// A record.
  public init(state: BiometryState, changedAt: String, reason: String?, seal: String?) {
    self.state = state
    self.changedAt = changedAt
    self.reason = reason
    self.seal = seal
  }

  func validate() throws {
    if state == .active {
      guard let seal, (try? [UInt8](base64: seal, field: "seal")) != nil else {
        throw VaultError.malformedHeader(.deviceRecords(.activeBiometryWithoutSeal))
      }
    }
  }
}

/// What activation seals: the domain state from the activating match, with type and time.
public struct BiometricSeal: Codable, Equatable, Sendable {
  /// `"vault.biometry.v2" || vault id || device id`, the associated data of the sealed seal
  /// (`vault(5)` BIOMETRIC SEAL): a seal belongs to one device's sensor.
  package static func associatedData(_ vaultID: VaultID, deviceID: [UInt8]) -> [UInt8] {
    DomainLabel.biometryV2.bytes + vaultID.bytes + deviceID
  }

  /// The domain state, base64 (32 bytes).
  public var domainState: String
  /// The biometry type at activation (`touch-id`, `face-id`, `optic-id`).
  public var type: String
  /// Activation time, ISO 8601 UTC.
  public var activatedAt: String
  /// True when activation stored a passcode-bound keychain item (release 0.9.0 and later).
  ///
  /// The item is kept "when passcode set, this device only": its absence then means the device
  /// passcode was removed. Nil in older seals, which are not bound to the passcode.
  public var passcodeBound: Bool?

  /// Creates a seal.
  public init(domainState: [UInt8], type: String, activatedAt: String, passcodeBound: Bool?) {
    self.domainState = Data(domainState).base64EncodedString()
    self.type = type
    self.activatedAt = activatedAt
    self.passcodeBound = passcodeBound
  }
}
