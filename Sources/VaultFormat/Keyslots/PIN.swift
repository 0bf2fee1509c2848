import FoundationEssentials
import Glibc
import VaultCrypto

/// A PIN or passphrase in guarded memory, NFC-normalized.
///
/// Read straight into `SecureBytes`. Pure-ASCII input is already in NFC and is never copied out;
/// other input is normalized through a short-lived `String` (Foundation has no in-place NFC).
public struct PIN: Sendable, CustomStringConvertible {
  /// Shortest PIN accepted when typed, in Unicode scalars (PINs set by release 0.1.0).
  public static let minimumLength = 4
  /// Shortest PIN that may be set (init, passwd, recover), in Unicode scalars: the bank-app PIN
  /// pad's six.
  public static let minimumNewLength = 6

  /// The number of Unicode scalars.
  public var length: Int {
    bytes.withBytes { String(decoding: $0, as: UTF8.self).unicodeScalars.count }
  }

  /// How many PINs there are of this one's length and kind: the size of the alphabets its
  /// characters come from (digits 10, lower case 26, upper case 26, other ASCII 33, anything
  /// else 1,000) to the power of its length, as a `Double` (it can be astronomically large).
  public var searchSpace: Double {
    bytes.withBytes { raw in
      let scalars = String(decoding: raw, as: UTF8.self).unicodeScalars
      var alphabet = 0.0
      if scalars.contains(where: { ("0"..."9").contains($0) }) { alphabet += 10 }
      if scalars.contains(where: { ("a"..."z").contains($0) }) { alphabet += 26 }
      if scalars.contains(where: { ("A"..."Z").contains($0) }) { alphabet += 26 }
      if scalars.contains(where: {
        $0.isASCII && !("0"..."9").contains($0) && !("a"..."z").contains($0)
          && !("A"..."Z").contains($0)
      }) {
        alphabet += 33
      }
      if scalars.contains(where: { !$0.isASCII }) { alphabet += 1000 }
      return pow(max(alphabet, 1), Double(scalars.count))
    }
  }

  /// True when this PIN may be set as a new one.
  public var isLongEnoughToSet: Bool { length >= Self.minimumNewLength }
  /// Longest accepted PIN, in bytes.
  public static let maximumByteCount = 1024
  /// The NFC-normalized UTF-8 bytes.
  public let bytes: SecureBytes

  /// Normalizes raw UTF-8 bytes (a line without its newline).
  ///
  /// - Throws: `VaultError.invalidInput` for invalid UTF-8, control characters, or a length
  ///   outside 4 characters...1024 bytes.
  public init(utf8 raw: SecureBytes) throws {
    let isASCII = raw.withBytes { $0.allSatisfy { $0 < 0x80 } }
    if isASCII {
      let ok = raw.withBytes { $0.allSatisfy { $0 >= 0x20 && $0 != 0x7f } }
      guard ok else { throw Self.refused(.controlCharacter) }
      guard raw.count >= Self.minimumLength else { throw Self.tooShort }
      guard raw.count <= Self.maximumByteCount else { throw Self.tooLong }
      self.bytes = raw
      return
    }
    var copy = raw.unprotectedBytes
    defer { wipe(&copy) }
    guard let text = String(validating: copy, as: UTF8.self) else {
      throw Self.refused(.notUTF8)
    }
    guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw Self.refused(.controlCharacter)
    }
    var normalized = Array(text.canonicallyComposed.utf8)
    defer { wipe(&normalized) }
    guard text.unicodeScalars.count >= Self.minimumLength else { throw Self.tooShort }
    guard normalized.count <= Self.maximumByteCount else { throw Self.tooLong }
    self.bytes = SecureBytes(copying: normalized)
  }

  /// The refusal of a PIN for `fault`.
  static func refused(_ fault: PINFault) -> VaultError { .invalidInput(.pin(fault)) }

  /// The refusal of a PIN shorter than `minimumLength`.
  static var tooShort: VaultError { refused(.tooShort(minimum: minimumLength)) }

  /// The refusal of a PIN longer than `maximumByteCount`.
  static var tooLong: VaultError { refused(.tooLong(maximumBytes: maximumByteCount)) }

  /// Always `<redacted>`.
  public var description: String { "<redacted>" }
}
