import VaultCrypto

/// A vault's identity: 16 random bytes, bound into every record's associated data and naming the
/// vault's device-side records and session folder.
///
/// Stored in the header as standard base64 (`vault_id`).
public struct VaultID: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Length in bytes.
  public static let byteCount = 16
  /// The 16 bytes.
  public let bytes: [UInt8]

  /// Wraps 16 bytes.
  ///
  /// - Throws: `VaultError.malformedHeader` for any other length.
  public init(_ bytes: [UInt8]) throws {
    guard bytes.count == Self.byteCount else {
      throw VaultError.malformedHeader(.vaultIDLength(found: bytes.count))
    }
    self.bytes = bytes
  }

  /// A fresh random id (`randombytes_buf`).
  public static func random() -> VaultID {
    VaultID(unchecked: SecureBytes.random(count: byteCount).unprotectedBytes)
  }

  private init(unchecked: [UInt8]) { bytes = unchecked }

  /// Parses 32 lower-case hex digits (a session folder's name).
  ///
  /// - Throws: `VaultError.invalidInput` for anything else.
  public init(hexDigits text: String) throws {
    let digits = Array(text.utf8)
    guard digits.count == 2 * Self.byteCount else {
      throw VaultError.invalidInput(.notAVaultID(text))
    }
    var out: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
      else { throw VaultError.invalidInput(.notAVaultID(text)) }
      out.append(byte)
    }
    bytes = out
  }

  /// 32 lower-case hex digits: the key of the vault's device-side records and session folder.
  public var hex: String { bytes.hex }

  /// The hex form.
  public var description: String { hex }

  /// Decodes standard base64 of exactly 16 bytes.
  ///
  /// - Throws: `DecodingError.dataCorrupted` otherwise.
  public init(from decoder: Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let bytes = try? [UInt8](base64: text, count: Self.byteCount, field: "vault_id") else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "vault_id is not 16 bytes"))
    }
    self.bytes = bytes
  }

  /// Encodes as standard base64.
  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(bytes.base64)
  }
}
