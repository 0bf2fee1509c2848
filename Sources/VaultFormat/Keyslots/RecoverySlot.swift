import FoundationEssentials
import Glibc
import VaultCrypto

/// The format-2 recovery slot, with a verifier and a tag keyed by the recovery code itself.
///
/// The master key is wrapped under the Argon2id output of the code. See "RECOVERY SLOT" in
/// `vault(5)`.
///
/// The code has 160 bits of entropy, so it keys BLAKE2b directly: a wrong code is told apart
/// from an edited slot or KDF before any key derivation.
public struct RecoverySlot: Codable, Equatable, Sendable {
  /// The value of each stored property, in order.
  package init(
    salt: String, wrapped: String, verifier: String? = nil, tag: String? = nil,
    enrollmentKey: String? = nil
  ) {
    self.salt = salt
    self.wrapped = wrapped
    self.verifier = verifier
    self.tag = tag
    self.enrollmentKey = enrollmentKey
  }

  /// Argon2id salt (16 bytes, base64).
  public var salt: String
  /// `seal(Argon2id(code), "vault.keyslot.v1" || vault id || "recovery", master key)` (72 bytes,
  /// base64).
  public var wrapped: String
  /// `BLAKE2b-128(key: code, "vault.recovery-verifier.v2" || vault id)` (base64); nil in a slot
  /// migrated from format 1 until the code is first used (the migration had no code).
  public var verifier: String?
  /// `BLAKE2b-128(key: code, "vault.recovery-tag.v2" || vault id || profile "|" opslimit "|"
  /// memlimit || salt || wrapped)` (base64); nil with `verifier`.
  public var tag: String?
  /// The code's Ed25519 enrollment public key (32 bytes, base64; `Enrollment.key`); nil in a
  /// slot made before release 0.10.0 until the code is next used.
  public var enrollmentKey: String?

  static let fieldNames = ["salt", "wrapped", "verifier", "tag", "enrollment_key"]

  enum CodingKeys: String, CodingKey {
    case salt, wrapped, verifier, tag
    case enrollmentKey = "enrollment_key"
  }

  func validate() throws {
    _ = try [UInt8](base64: salt, count: Salt.byteCount, field: "recovery salt")
    _ = try [UInt8](
      base64: wrapped, count: Nonce.byteCount + 32 + AEAD.tagByteCount, field: "recovery key")
    guard (verifier == nil) == (tag == nil) else {
      throw VaultError.malformedHeader(.keyslots(.verifierWithoutTag))
    }
    if let verifier, let tag {
      _ = try [UInt8](base64: verifier, count: 16, field: "recovery verifier")
      _ = try [UInt8](base64: tag, count: 16, field: "recovery tag")
    }
    if let enrollmentKey {
      _ = try [UInt8](base64: enrollmentKey, count: 32, field: "enrollment_key")
    }
  }

  /// The verifier of `code` (canonical form) for `vaultID`.
  package static func verifier(code: SecureBytes, vaultID: VaultID) -> String {
    GenericHash.keyed(
      key: code, parts: [DomainLabel.recoveryVerifier.bytes, vaultID.bytes], outputLength: 16
    ).base64
  }

  /// The tag of `code` over the KDF parameters and the slot's salt and box.
  static func tag(
    code: SecureBytes, vaultID: VaultID, kdf: KDFParameters, salt: String, wrapped: String
  )
    -> String
  {
    let fields = [salt, wrapped].map { (try? [UInt8](base64: $0, field: "recovery")) ?? [] }
    return GenericHash.keyed(
      key: code,
      parts: [
        DomainLabel.recoveryTag.bytes, vaultID.bytes,
        Array("\(kdf.profile)|\(kdf.opsLimit)|\(kdf.memLimit)".utf8),
      ] + fields, outputLength: 16
    ).base64
  }

  /// A new slot for `code` wrapping `masterKey`, with a fresh salt and the code's enrollment
  /// key.
  ///
  /// - Throws: `VaultError.storage` when Argon2id cannot allocate its memory.
  public static func make(
    code: SecureBytes, masterKey: SymmetricKey, vaultID: VaultID, kdf: KDFParameters
  ) throws -> RecoverySlot {
    let salt = Salt.random()
    let kek = try Keyslot.kek(
      type: .recovery, secret: code, salt: salt, parameters: kdf, vaultID: vaultID,
      deviceSecret: nil)
    let slot = Keyslot.make(
      type: .recovery, salt: salt, kek: kek, masterKey: masterKey, vaultID: vaultID)
    return RecoverySlot(
      salt: slot.salt, wrapped: slot.wrapped, verifier: verifier(code: code, vaultID: vaultID),
      tag: tag(code: code, vaultID: vaultID, kdf: kdf, salt: slot.salt, wrapped: slot.wrapped),
      enrollmentKey: try Enrollment.key(code: code, vaultID: vaultID).publicKey.base64)
  }

  /// Opens the slot with a canonical recovery code.
  ///
  /// - Throws: `VaultError.wrongRecoveryCode` when the verifier differs (before any derivation);
  ///   `.integrity` when the verifier matches but the tag does not (the slot or the KDF parameters
  ///   were edited), or when the box does not open all the same.
  public func open(code: SecureBytes, vaultID: VaultID, kdf: KDFParameters) throws -> SymmetricKey {
    if let verifier, let tag {
      guard
        constantTimeEqual(
          Array(Self.verifier(code: code, vaultID: vaultID).utf8), Array(verifier.utf8))
      else { throw VaultError.wrongRecoveryCode }
      let expected = Self.tag(
        code: code, vaultID: vaultID, kdf: kdf, salt: salt, wrapped: wrapped)
      guard constantTimeEqual(Array(expected.utf8), Array(tag.utf8)) else {
        throw VaultError.integrity(.recoverySlot(.editedUnderRightCode))
      }
    }
    let slot = Keyslot(type: .recovery, salt: salt, wrapped: wrapped)
    let kek = try Keyslot.kek(
      type: .recovery, secret: code, salt: try slot.saltValue(), parameters: kdf,
      vaultID: vaultID, deviceSecret: nil)
    do {
      return try slot.open(kek: kek, vaultID: vaultID)
    } catch is Keyslot.WrongKey {
      // Without a verifier (a slot migrated from format 1) a wrong code is only known here.
      guard verifier != nil else { throw VaultError.wrongRecoveryCode }
      throw VaultError.integrity(.recoverySlot(.failedAuthentication))
    }
  }

  /// This slot with the verifier and tag of `code` added (for a slot migrated from format 1,
  /// once the code has opened it).
  package func completed(code: SecureBytes, vaultID: VaultID, kdf: KDFParameters) -> RecoverySlot {
    var slot = self
    slot.verifier = Self.verifier(code: code, vaultID: vaultID)
    slot.tag = Self.tag(code: code, vaultID: vaultID, kdf: kdf, salt: salt, wrapped: wrapped)
    return slot
  }
}
