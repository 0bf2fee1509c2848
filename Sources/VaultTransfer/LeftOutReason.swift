/// Why an export in a format for leaving (`bitwarden-json`, `keepass-xml`) left an entry out
/// (`ExportLeftOut.reason`).
public enum LeftOutReason: Equatable, Sendable {
  /// The content (`bytes` bytes) is larger than `format` is written with; the `vault` format
  /// carries any size.
  case tooLarge(ExportFormat, bytes: Int)
  /// The content is not UTF-8 text.
  case contentNotText
  /// The content is not UTF-8 text that XML 1.0 can carry.
  case contentNotXMLText
  /// The name holds a character XML 1.0 cannot carry.
  case nameNotXMLText
  /// The format's reader would refuse the item (a first line with a carriage return, or only
  /// line breaks).
  case readerWouldRefuse
}
