import CSodium

/// The one-time recovery code: 32 symbols of Crockford's base32 (160 bits), shown in 8 groups.
///
/// The alphabet has no I, L, O or U; when typed back, case is ignored, `-` and spaces are
/// dropped, O reads as 0 and I or L as 1.
public enum RecoveryCode {
  /// Crockford base32: 0-9 and A-Z without I, L, O, U.
  public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
  /// Symbols in a code (5 bits each: 160 bits).
  public static let symbolCount = 32

  /// A fresh code from `randombytes_uniform(32)`, in canonical form (no separators).
  public static func generate() -> SecureBytes {
    _ = Sodium.ready
    let out = SecureBytes(count: symbolCount)
    for index in 0..<symbolCount {
      let symbol = alphabet[Int(randombytes_uniform(UInt32(alphabet.count)))]
      out.pointer.storeBytes(of: symbol, toByteOffset: index, as: UInt8.self)
    }
    return out
  }

  /// The code grouped for display: `XXXX-XXXX-…` (8 groups of 4).
  public static func display(_ code: SecureBytes) -> String {
    let symbols = code.unprotectedBytes
    return stride(from: 0, to: symbols.count, by: 4).map {
      String(decoding: symbols[$0..<min($0 + 4, symbols.count)], as: UTF8.self)
    }.joined(separator: "-")
  }

  /// Canonicalizes typed input.
  ///
  /// - Throws: `VaultError.invalidInput` unless it holds exactly 32 alphabet symbols.
  public static func parse(_ typed: SecureBytes) throws -> SecureBytes {
    let out = SecureBytes(count: symbolCount)
    var count = 0
    for offset in 0..<typed.count {
      var byte = typed.pointer.load(fromByteOffset: offset, as: UInt8.self)
      if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") { continue }
      if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { byte -= 32 }
      switch byte {
      case UInt8(ascii: "O"): byte = UInt8(ascii: "0")
      case UInt8(ascii: "I"), UInt8(ascii: "L"): byte = UInt8(ascii: "1")
      default: break
      }
      guard alphabet.contains(byte), count < symbolCount else {
        throw VaultError.invalidInput(
          "a recovery code is 32 symbols of 0-9 and A-Z (I and L read as 1, O as 0, no U)")
      }
      out.pointer.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
      count += 1
    }
    guard count == symbolCount else {
      throw VaultError.invalidInput(
        "a recovery code is 32 symbols of 0-9 and A-Z (I and L read as 1, O as 0, no U)")
    }
    return out
  }
}
