import VaultCrypto

/// The one-time recovery code: 32 symbols of Crockford's base32 (160 bits), shown with a check
/// group of 4 more symbols in 9 groups of 4 (`vault(5)`, RECOVERY CODE).
///
/// The alphabet has no I, L, O or U; when typed back, case is ignored, `-` and spaces are
/// dropped, O reads as 0 and I or L as 1. The check group (the first 20 bits of an unkeyed
/// BLAKE2b of the 32 symbols) tells a typo from a wrong code before any key derivation; it never
/// enters a key, so the canonical form stays the 32 symbols and codes shown without it still work.
public enum RecoveryCode {
  /// Crockford base32: 0-9 and A-Z without I, L, O, U.
  public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
  /// Symbols in a code (5 bits each: 160 bits), its canonical form.
  public static let symbolCount = 32
  /// Symbols in the check group shown after them (20 bits).
  public static let checkSymbolCount = 4

  static let malformed = VaultError.invalidInput(.recoveryCode(.malformed))

  static let typo = VaultError.invalidInput(.recoveryCode(.typo))

  /// A fresh code from `randombytes_uniform(32)`, in canonical form (32 symbols, no separators).
  public static func generate() -> SecureBytes {
    let out = SecureBytes(count: symbolCount)
    for index in 0..<symbolCount {
      let symbol = alphabet[Int(SecureRandom.uniform(below: UInt32(alphabet.count)))]
      out[index] = symbol
    }
    return out
  }

  /// The check group of a canonical code: the first 20 bits of
  /// BLAKE2b-32(`"vault.recovery-check.v2"` || code), unkeyed, five bits a symbol, most
  /// significant first; 4 alphabet symbols (ASCII).
  ///
  /// - Precondition: `code` is `symbolCount` symbols.
  public static func checkGroup(_ code: SecureBytes) -> [UInt8] {
    precondition(code.count == symbolCount, "a canonical recovery code is 32 symbols")
    let hash = GenericHash.keyedSecret(
      key: SecureBytes(count: 0), prefix: DomainLabel.recoveryCheck.bytes, secret: code)
    let h = hash.bytes
    let value = UInt32(h[0]) << 12 | UInt32(h[1]) << 4 | UInt32(h[2]) >> 4
    return [15, 10, 5, 0].map { alphabet[Int(value >> $0 & 31)] }
  }

  /// The code grouped for display with its check group: `XXXX-…-XXXX-CCCC` (9 groups of 4).
  ///
  /// - Precondition: `code` is canonical (`symbolCount` symbols).
  public static func display(_ code: SecureBytes) -> String {
    let symbols = code.unprotectedBytes + checkGroup(code)
    return stride(from: 0, to: symbols.count, by: 4).map {
      String(decoding: symbols[$0..<min($0 + 4, symbols.count)], as: UTF8.self)
    }.joined(separator: "-")
  }

  /// Canonicalizes typed input: 36 symbols are checked against their check group and give the
  /// first 32; 32 symbols (a code shown before check groups, or typed without it) are taken as
  /// they are.
  ///
  /// - Returns: the 32 canonical symbols, in guarded memory.
  /// - Throws: `VaultError.invalidInput`: "the recovery code has a typo: …" when the check group
  ///   does not match, before anything else is done with the code; otherwise when the input does
  ///   not hold exactly 32 or 36 alphabet symbols.
  public static func parse(_ typed: SecureBytes) throws -> SecureBytes {
    let total = symbolCount + checkSymbolCount
    let symbols = SecureBytes(count: total)
    var count = 0
    for offset in 0..<typed.count {
      var byte = typed[offset]
      if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") { continue }
      if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { byte -= 32 }
      switch byte {
      case UInt8(ascii: "O"): byte = UInt8(ascii: "0")
      case UInt8(ascii: "I"), UInt8(ascii: "L"): byte = UInt8(ascii: "1")
      default: break
      }
      guard alphabet.contains(byte), count < total else { throw malformed }
      symbols[count] = byte
      count += 1
    }
    guard count == symbolCount || count == total else { throw malformed }
    let code = symbols.prefix(symbolCount)
    if count == total {
      let typed = symbols.suffix(from: symbolCount).unprotectedBytes
      guard constantTimeEqual(checkGroup(code), typed) else { throw typo }
    }
    return code
  }
}
