import VaultCore
import VaultCrypto
import VaultFormat

/// Standard base64 (RFC 4648, section 4) decoded from guarded memory into guarded memory, for
/// contents given as `content_b64`.
public enum GuardedBase64 {
  /// The bytes `text` encodes.
  ///
  /// The alphabet is `A`–`Z`, `a`–`z`, `0`–`9`, `+` and `/`; `=` padding at the end is optional
  /// (but at most two, and only where it belongs); CR and LF are skipped anywhere, so the output
  /// of `base64`, wrapped at 76 columns, reads as it is.
  ///
  /// - Throws: `TransferError` without a location for any other byte, a misplaced `=`, or a
  ///   length that leaves a single character in the last group.
  public static func decode(_ text: SecureBytes) throws -> SecureBytes {
    try text.withBytes { bytes in
      var digits = 0
      var padding = 0
      for byte in bytes where byte != 0x0A && byte != 0x0D {
        if byte == 0x3D {
          padding += 1
          continue
        }
        guard padding == 0, value(byte) != nil else {
          throw TransferError(.base64(.outsideAlphabet))
        }
        digits += 1
      }
      let remainder = digits % 4
      guard remainder != 1, padding <= 2, padding == 0 || (digits + padding) % 4 == 0 else {
        throw TransferError(.base64(.wrongLength))
      }
      let out = SecureBytes(
        count: digits / 4 * 3 + (remainder == 0 ? 0 : remainder - 1), packed: true)
      out.withMutableBytes { target in
        var accumulator: UInt32 = 0
        var held = 0
        var written = 0
        for byte in bytes {
          guard let sextet = value(byte) else { continue }
          accumulator = accumulator << 6 | UInt32(sextet)
          held += 6
          if held >= 8 {
            held -= 8
            target[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(held))
            written += 1
          }
        }
        accumulator = 0
      }
      return out
    }
  }

  /// The 6-bit value of a base64 digit, or nil.
  static func value(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x41...0x5A: return byte - 0x41
    case 0x61...0x7A: return byte - 0x61 + 26
    case 0x30...0x39: return byte - 0x30 + 52
    case 0x2B: return 62
    case 0x2F: return 63
    default: return nil
    }
  }
}
