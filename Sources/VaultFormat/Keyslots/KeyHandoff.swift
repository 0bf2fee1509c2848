import FoundationEssentials
import VaultCrypto

/// One link of the header's `handoffs` (`vault(5)` MASTER-KEY ROTATION): a rotation from one
/// master key to the next, named by commitments that reveal neither key, signed by the rotating
/// device's writer key of before the rotation and authorized by the old recovery code's
/// enrollment key, so that a device holding the older key can take the newer one from a sync
/// without trusting whoever can write the remote, or holds the old key.
public struct KeyHandoff: Codable, Equatable, Sendable {
  /// The rotating device's id (16 bytes, base64).
  public var deviceID: String
  /// The old master key's commitment (32 bytes, base64).
  public var previous: String
  /// The new master key's commitment (32 bytes, base64).
  public var next: String
  /// The rotating device's writer public key after the rotation (32 bytes, base64).
  public var writerKey: String
  /// Ed25519 signature of `message` by the writer key before the rotation (64 bytes, base64).
  public var signature: String
  /// The new recovery code's enrollment public key (32 bytes, base64).
  public var enrollmentKey: String
  /// Ed25519 signature of `authorizationMessage` by the old code's enrollment key (64 bytes,
  /// base64); nil for a rotation made without the old code (no other device to take it).
  public var authorization: String?

  enum CodingKeys: String, CodingKey {
    case previous, next, signature, authorization
    case deviceID = "device_id"
    case writerKey = "writer_key"
    case enrollmentKey = "enrollment_key"
  }

  static let fieldNames = [
    "device_id", "previous", "next", "writer_key", "signature", "enrollment_key", "authorization",
  ]

  /// `BLAKE2b-256(key: master key, "vault.key-commitment.v1" || vault id)`: a PRF output, so
  /// it names the key without revealing anything of it (32 bytes).
  public static func commitment(_ key: SymmetricKey, vaultID: VaultID) -> [UInt8] {
    GenericHash.keyed(key: key.bytes, parts: [DomainLabel.keyCommitment.bytes, vaultID.bytes])
  }

  /// The writer key a rotation to `new` gives the device of `deviceSecret`.
  ///
  /// Ed25519 from the seed `BLAKE2b-256(key: device secret, "vault.writer-seed.v1" || vault id ||
  /// commitment of new)` (`crypto_sign_seed_keypair`). Only that device can make it, and it can
  /// make it again after a rotation killed before it recorded the key (taken back by its next
  /// sync).
  ///
  /// - Throws: `VaultError.integrity` (never, for a 32-byte seed).
  package static func writer(deviceSecret: DeviceSecret, vaultID: VaultID, newKey: SymmetricKey)
    throws
    -> SigningKeyPair
  {
    try writer(
      deviceSecret: deviceSecret, vaultID: vaultID, next: commitment(newKey, vaultID: vaultID))
  }

  /// The writer key of the rotation whose new key's commitment is `next` (32 bytes).
  package static func writer(deviceSecret: DeviceSecret, vaultID: VaultID, next: [UInt8]) throws
    -> SigningKeyPair
  {
    let seed = GenericHash.keyedSecret(
      key: deviceSecret.bytes, parts: [DomainLabel.writerSeed.bytes, vaultID.bytes, next])
    return try Signing.keyPair(seed: seed)
  }

  /// `"vault.handoff-authorization.v1" || vault id || previous || next || device id || writer
  /// key || enrollment key` (190 bytes), what the authorization signs.
  static func authorizationMessage(
    vaultID: VaultID, previous: [UInt8], next: [UInt8], deviceID: [UInt8], writerKey: [UInt8],
    enrollmentKey: [UInt8]
  ) -> [UInt8] {
    DomainLabel.handoffAuthorization.bytes + vaultID.bytes + previous + next + deviceID
      + writerKey + enrollmentKey
  }

  /// `"vault.key-handoff.v1" || vault id || previous || next || device id || writer key`
  /// (148 bytes), what the signature signs.
  static func message(
    vaultID: VaultID, previous: [UInt8], next: [UInt8], deviceID: [UInt8], writerKey: [UInt8]
  ) -> [UInt8] {
    DomainLabel.keyHandoff.bytes + vaultID.bytes + previous + next + deviceID + writerKey
  }

  /// The link of a rotation from `old` to `new` made by the device `deviceID`, signed with its
  /// writer key of before the rotation and, with `authorizer` (the old code's enrollment key),
  /// authorized (`crypto_sign_detached`, Ed25519).
  ///
  /// - Parameter newEnrollmentKey: the new code's enrollment public key (32 bytes).
  package static func make(
    from old: SymmetricKey, to new: SymmetricKey, vaultID: VaultID, deviceID: [UInt8],
    signer: SigningKeyPair, newWriterKey: [UInt8], newEnrollmentKey: [UInt8],
    authorizer: SigningKeyPair?
  ) -> KeyHandoff {
    let previous = commitment(old, vaultID: vaultID)
    let next = commitment(new, vaultID: vaultID)
    let signed = message(
      vaultID: vaultID, previous: previous, next: next, deviceID: deviceID,
      writerKey: newWriterKey)
    let signature = signed.withUnsafeBytes { signer.sign($0) }
    let authorization = authorizer.map { authorizer in
      authorizationMessage(
        vaultID: vaultID, previous: previous, next: next, deviceID: deviceID,
        writerKey: newWriterKey, enrollmentKey: newEnrollmentKey
      ).withUnsafeBytes { authorizer.sign($0) }.base64
    }
    return KeyHandoff(
      deviceID: deviceID.base64, previous: previous.base64, next: next.base64,
      writerKey: newWriterKey.base64, signature: signature.base64,
      enrollmentKey: newEnrollmentKey.base64, authorization: authorization)
  }

  /// True when the signature verifies under `signerKey` (an Ed25519 public key).
  func verifies(vaultID: VaultID, signerKey: [UInt8]) -> Bool {
    guard let previous = try? bytes(previous, 32), let next = try? bytes(next, 32),
      let deviceID = try? bytes(deviceID, 16), let writerKey = try? bytes(writerKey, 32),
      let signature = try? bytes(signature, Signing.signatureByteCount)
    else { return false }
    let signed = Self.message(
      vaultID: vaultID, previous: previous, next: next, deviceID: deviceID, writerKey: writerKey)
    return signed.withUnsafeBytes {
      Signing.verify(signature, message: $0, publicKey: signerKey)
    }
  }

  /// True when the authorization verifies under `enrollmentKey` (an Ed25519 public key).
  func isAuthorized(vaultID: VaultID, enrollmentKey: [UInt8]) -> Bool {
    guard let authorization, let previous = try? bytes(previous, 32),
      let next = try? bytes(next, 32), let deviceID = try? bytes(deviceID, 16),
      let writerKey = try? bytes(writerKey, 32),
      let newEnrollmentKey = try? bytes(self.enrollmentKey, 32),
      let signature = try? bytes(authorization, Signing.signatureByteCount)
    else { return false }
    let signed = Self.authorizationMessage(
      vaultID: vaultID, previous: previous, next: next, deviceID: deviceID, writerKey: writerKey,
      enrollmentKey: newEnrollmentKey)
    return signed.withUnsafeBytes {
      Signing.verify(signature, message: $0, publicKey: enrollmentKey)
    }
  }

  private func bytes(_ text: String, _ count: Int) throws -> [UInt8] {
    try [UInt8](base64: text, count: count, field: "handoffs")
  }

  /// - Throws: `VaultError.malformedHeader` for a value of the wrong length.
  func validate() throws {
    _ = try bytes(deviceID, 16)
    _ = try bytes(previous, 32)
    _ = try bytes(next, 32)
    _ = try bytes(writerKey, 32)
    _ = try bytes(signature, Signing.signatureByteCount)
    _ = try bytes(enrollmentKey, 32)
    if let authorization { _ = try bytes(authorization, Signing.signatureByteCount) }
  }

  /// The new master key a device holding `current` takes by `links` and `masterBoxes`
  /// (`vault(5)` Taking a rotation).
  ///
  /// - Parameters:
  ///   - trusted: each device id (base64) this device's header knows, not revoked, with its
  ///     writer key (32 bytes).
  ///   - enrollmentKey: the enrollment public key of this device's header (32 bytes).
  ///   - ownWriter: the writer public key this device makes for a link's `next` (its own
  ///     rotation), nil when the link is not this device's (`deviceID` base64, `next` bytes).
  ///   - openBox: opens one master box sealed to this device, nil for a box that is not.
  /// - Returns: the newest key, its commitment the last link's `next`, and the last link's
  ///   enrollment key (32 bytes).
  /// - Throws: `VaultError.integrity` when no link starts at `current`, a link does not follow
  ///   the one before, a signer is unknown or its signature does not verify, a link is neither
  ///   authorized under the enrollment key in force nor this device's own, no box opens for this
  ///   device, or the key it holds is not the last link's.
  package static func walk(
    _ links: [KeyHandoff], from current: SymmetricKey, vaultID: VaultID,
    trusted: [String: [UInt8]], enrollmentKey: [UInt8],
    ownWriter: (_ deviceID: String, _ next: [UInt8]) -> [UInt8]?, masterBoxes: [String],
    openBox: (String) -> SymmetricKey?
  ) throws -> (key: SymmetricKey, enrollmentKey: [UInt8]) {
    let start = commitment(current, vaultID: vaultID).base64
    guard let first = links.firstIndex(where: { $0.previous == start }) else {
      throw VaultError.integrity(.handoff(.fromNoKeyHeld(maximumHandoffs: Header.maximumHandoffs)))
    }
    var writers = trusted
    var inForce = enrollmentKey
    var expected = start
    for link in links[first...] {
      guard link.previous == expected else {
        throw VaultError.integrity(.handoff(.notConsecutive))
      }
      guard let key = writers[link.deviceID] else {
        throw VaultError.integrity(.handoff(.unknownSigner))
      }
      guard link.verifies(vaultID: vaultID, signerKey: key) else {
        throw VaultError.integrity(.handoff(.notSigned))
      }
      let made = try link.bytes(link.writerKey, 32)
      let own = ownWriter(link.deviceID, try link.bytes(link.next, 32))
      guard
        link.isAuthorized(vaultID: vaultID, enrollmentKey: inForce)
          || own.map({ constantTimeEqual($0, made) }) == true
      else {
        throw VaultError.integrity(.handoff(.notAuthorized))
      }
      inForce = try link.bytes(link.enrollmentKey, 32)
      writers[link.deviceID] = made
      expected = link.next
    }
    guard let key = masterBoxes.lazy.compactMap(openBox).first else {
      throw HandoffError.notSealedToThisDevice
    }
    guard
      constantTimeEqual(Array(commitment(key, vaultID: vaultID).base64.utf8), Array(expected.utf8))
    else {
      throw VaultError.integrity(.handoff(.sealedKeyNotRotated))
    }
    return (key, inForce)
  }
}
