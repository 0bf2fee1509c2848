import VaultCore

/// Standard base64 (RFC 4648 section 4, with `=` padding, no line breaks) decoded from guarded
/// memory into guarded memory.
enum GuardedBase64 {
  /// The bytes `text` (ASCII base64) encodes, in new guarded memory.
  ///
  /// - Throws: `TransferError` (without a location) when the length is not a multiple of 4, a
  ///   character is outside the alphabet, or `=` appears other than as the final padding.
  static func decode(_ text: SecureBytes) throws -> SecureBytes {
    let invalid = TransferError(
      "it is not standard base64 (A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4)")
    guard text.count % 4 == 0 else { throw invalid }
    return try text.withBytes { bytes -> SecureBytes in
      var padding = 0
      if bytes.count >= 1 && bytes[bytes.count - 1] == UInt8(ascii: "=") { padding += 1 }
      if bytes.count >= 2 && bytes[bytes.count - 2] == UInt8(ascii: "=") { padding += 1 }
      let out = SecureBytes(count: bytes.count / 4 * 3 - padding)
      try out.withMutableBytes { target in
        var accumulator: UInt32 = 0
        var bits = 0
        var written = 0
        for (index, byte) in bytes.enumerated() {
          if index >= bytes.count - padding { break }
          guard let value = sextet(byte) else { throw invalid }
          accumulator = accumulator << 6 | UInt32(value)
          bits += 6
          if bits >= 8 {
            bits -= 8
            target[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
            written += 1
          }
        }
      }
      return out
    }
  }

  /// The 6-bit value of one character of the alphabet.
  static func sextet(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }
}
