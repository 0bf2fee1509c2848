import Foundation

/// A PIN or passphrase in guarded memory, NFC-normalized.
///
/// Read straight into `SecureBytes`. Pure-ASCII input is already in NFC and is never copied out;
/// other input is normalized through a short-lived `String` (Foundation has no in-place NFC).
public struct PIN: Sendable, CustomStringConvertible {
  /// Shortest accepted PIN, in Unicode scalars.
  public static let minimumLength = 4
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
      guard ok else { throw VaultError.invalidInput("the PIN contains a control character") }
      guard raw.count >= Self.minimumLength else {
        throw VaultError.invalidInput("the PIN must have at least \(Self.minimumLength) characters")
      }
      guard raw.count <= Self.maximumByteCount else {
        throw VaultError.invalidInput("the PIN is longer than \(Self.maximumByteCount) bytes")
      }
      self.bytes = raw
      return
    }
    var copy = raw.unprotectedBytes
    defer { wipe(&copy) }
    guard let text = String(validating: copy, as: UTF8.self) else {
      throw VaultError.invalidInput("the PIN is not valid UTF-8")
    }
    guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw VaultError.invalidInput("the PIN contains a control character")
    }
    var normalized = Array(text.precomposedStringWithCanonicalMapping.utf8)
    defer { wipe(&normalized) }
    guard text.unicodeScalars.count >= Self.minimumLength else {
      throw VaultError.invalidInput("the PIN must have at least \(Self.minimumLength) characters")
    }
    guard normalized.count <= Self.maximumByteCount else {
      throw VaultError.invalidInput("the PIN is longer than \(Self.maximumByteCount) bytes")
    }
    self.bytes = SecureBytes(copying: normalized)
  }

  /// Always `<redacted>`.
  public var description: String { "<redacted>" }
}
