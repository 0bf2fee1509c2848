import CSodium

/// Argon2id cost parameters as stored in the vault header.
///
/// The named profiles are libsodium's `crypto_pwhash_*_INTERACTIVE/MODERATE/SENSITIVE` constants.
/// `test` is libsodium's minimum: it exists only for test suites, is never a default, and is
/// recorded in the header so `status` can warn about it.
public struct KDFParameters: Codable, Equatable, Sendable {
  /// Profile name: `interactive`, `moderate`, `sensitive` or `test`.
  public let profile: String
  /// Passes over memory (`opslimit`).
  public let opsLimit: UInt64
  /// Memory in bytes (`memlimit`).
  public let memLimit: UInt64

  /// Parameters as read from a header; `validate()` checks them.
  public init(profile: String, opsLimit: UInt64, memLimit: UInt64) {
    self.profile = profile
    self.opsLimit = opsLimit
    self.memLimit = memLimit
  }

  /// Upper bound accepted from a header: 16 passes.
  public static let maxOpsLimit: UInt64 = 16
  /// Upper bound accepted from a header: 4 GiB.
  public static let maxMemLimit: UInt64 = 4 << 30

  /// 2 passes, 64 MiB.
  public static let interactive = KDFParameters(
    profile: "interactive", opsLimit: UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE),
    memLimit: UInt64(crypto_pwhash_MEMLIMIT_INTERACTIVE))
  /// 3 passes, 256 MiB: the default.
  public static let moderate = KDFParameters(
    profile: "moderate", opsLimit: UInt64(crypto_pwhash_OPSLIMIT_MODERATE),
    memLimit: UInt64(crypto_pwhash_MEMLIMIT_MODERATE))
  /// 4 passes, 1 GiB.
  public static let sensitive = KDFParameters(
    profile: "sensitive", opsLimit: UInt64(crypto_pwhash_OPSLIMIT_SENSITIVE),
    memLimit: UInt64(crypto_pwhash_MEMLIMIT_SENSITIVE))
  /// 1 pass, 8 KiB (libsodium's minimum).
  ///
  /// Test suites only: offers no brute-force resistance.
  public static let test = KDFParameters(
    profile: "test", opsLimit: UInt64(crypto_pwhash_OPSLIMIT_MIN),
    memLimit: UInt64(crypto_pwhash_MEMLIMIT_MIN))

  /// The profiles a user may choose, in order of cost.
  public static let userProfiles: [KDFParameters] = [.interactive, .moderate, .sensitive]

  /// Looks up a profile by name (`test` included).
  public static func named(_ name: String) -> KDFParameters? {
    (userProfiles + [.test]).first { $0.profile == name }
  }

  /// Checks values read from a header: the profile must be known and its values exactly those of
  /// the profile, within the global bounds.
  ///
  /// - Throws: `CryptoError.kdfOutOfBounds` or `.kdfProfileMismatch`.
  public func validate() throws {
    guard opsLimit >= UInt64(crypto_pwhash_OPSLIMIT_MIN), opsLimit <= Self.maxOpsLimit else {
      throw CryptoError.kdfOutOfBounds(parameter: "opslimit", value: opsLimit)
    }
    guard memLimit >= UInt64(crypto_pwhash_MEMLIMIT_MIN), memLimit <= Self.maxMemLimit else {
      throw CryptoError.kdfOutOfBounds(parameter: "memlimit", value: memLimit)
    }
    guard let known = Self.named(profile), known == self else {
      throw CryptoError.kdfProfileMismatch(profile: profile)
    }
  }

  enum CodingKeys: String, CodingKey {
    case profile
    case opsLimit = "opslimit"
    case memLimit = "memlimit"
  }
}

/// Argon2id password hashing (`crypto_pwhash` with `crypto_pwhash_ALG_ARGON2ID13`, RFC 9106).
public enum Argon2id {
  /// Derives 32 bytes from `secret` and `salt` with the given cost, into guarded memory.
  ///
  /// - Throws: `CryptoError.kdfOutOfMemory` when libsodium cannot allocate the requested memory.
  public static func derive(secret: SecureBytes, salt: Salt, parameters: KDFParameters) throws
    -> SecureBytes
  {
    _ = Sodium.ready
    let out = SecureBytes(count: SymmetricKey.byteCount)
    let rc = crypto_pwhash(
      out.bytePointer, UInt64(out.count),
      UnsafeRawPointer(secret.pointer).assumingMemoryBound(to: CChar.self), UInt64(secret.count),
      salt.bytes, parameters.opsLimit, Int(parameters.memLimit), crypto_pwhash_ALG_ARGON2ID13)
    guard rc == 0 else {
      throw CryptoError.kdfOutOfMemory(mebibytes: parameters.memLimit >> 20)
    }
    return out
  }
}
