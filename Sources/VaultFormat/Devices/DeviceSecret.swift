import FoundationEssentials
import Glibc
import VaultCrypto

/// The per-device secret: 32 random bytes entangled with every PIN-derived KEK (so the vault file
/// alone cannot be attacked offline) and keying the simulated domain state.
///
/// Held in guarded memory; stored in the device state as standard base64. Equality is
/// constant-time and `description` never shows it.
public struct DeviceSecret: Sendable, Equatable, Encodable, CustomStringConvertible {
  /// Length in bytes.
  public static let byteCount = 32
  /// The secret, in guarded memory.
  public let bytes: SecureBytes

  /// A fresh random secret (`randombytes_buf`).
  public static func random() -> DeviceSecret {
    DeviceSecret(unchecked: SecureBytes.random(count: byteCount))
  }

  /// Wraps 32 guarded bytes.
  ///
  /// - Throws: `VaultError.integrity` for any other length.
  public init(_ bytes: SecureBytes) throws {
    guard bytes.count == Self.byteCount else {
      throw VaultError.integrity(.device(.secretLength(found: bytes.count)))
    }
    self.bytes = bytes
  }

  private init(unchecked: SecureBytes) { bytes = unchecked }

  /// Encodes as standard base64.
  public func encode(to encoder: Encoder) throws {
    var raw = bytes.unprotectedBytes
    defer { wipe(&raw) }
    var container = encoder.singleValueContainer()
    try container.encode(Data(raw).base64EncodedString())
  }

  /// Always `<redacted>`.
  public var description: String { "<redacted>" }
}
