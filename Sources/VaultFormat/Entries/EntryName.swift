import FoundationEssentials
import Glibc

/// A validated, NFC-normalized entry name such as `mail/work` or `journal/2026-11-29`.
public struct EntryName: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// Longest name, in UTF-8 bytes after normalization.
  public static let maximumByteCount = 1024
  /// The normalized name.
  public let value: String

  /// Normalizes to NFC and validates.
  ///
  /// - Throws: `VaultError.invalidInput` for an empty name, an empty, `.` or `..` segment, a
  ///   control character, or more than 1024 bytes.
  public init(_ raw: String) throws {
    let normalized = raw.canonicallyComposed
    func refused(_ fault: EntryNameFault) -> VaultError { .invalidInput(.name(fault)) }
    guard !normalized.isEmpty else { throw refused(.empty) }
    guard normalized.utf8.count <= Self.maximumByteCount else {
      throw refused(.tooLong(maximum: Self.maximumByteCount))
    }
    if normalized.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw refused(.controlCharacter)
    }
    for segment in normalized.split(separator: "/", omittingEmptySubsequences: false) {
      if segment.isEmpty { throw refused(.emptySegment(name: normalized)) }
      if segment == "." || segment == ".." {
        throw refused(.dotSegment(name: normalized, segment: String(segment)))
      }
    }
    self.value = normalized
  }

  /// The name itself.
  public var description: String { value }
}
