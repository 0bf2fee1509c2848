import VaultCore
import VaultFormat

/// Writes the `csv` format as `CSVImportReader` reads it: the header `name,content` (every
/// content UTF-8 text without a NUL byte) or `name,content_b64` (any other content, or any large
/// one), then one record per entry; records end in CRLF (RFC 4180).
///
/// A field is quoted when it holds a comma, a double quote, a CR or an LF, and a double quote
/// inside is doubled; any other field is written as it is. A content in `content` is its bytes
/// exactly (line breaks and all, inside quotes); in `content_b64` it is standard base64, padded,
/// without line breaks, which is never quoted. A large content (above
/// `EntryStore.streamThreshold`) makes the file `content_b64` (`needsBase64`), and is streamed
/// piece by piece.
///
/// Plaintext leaves guarded memory only where the records are handed to the sink.
public final class CSVExportWriter {
  private let out: OutputBuffer
  private let base64: Bool

  /// True when `entries` need the `content_b64` column.
  ///
  /// That is when one is large, or one's content is not UTF-8 text without a NUL byte. Reads
  /// every content that is not large once.
  ///
  /// - Throws: what reading a content throws.
  public static func needsBase64(_ entries: [any ExportableEntry]) throws -> Bool {
    for entry in entries {
      if entry.isLarge { return true }
      let text = try entry.content().withBytes { UTF8Text.isValid($0) && !$0.contains(0) }
      if !text { return true }
    }
    return false
  }

  /// A writer of the `content` column, or of `content_b64` when `base64`; writes the header.
  ///
  /// - Throws: what the sink throws.
  public init(base64: Bool, to sink: @escaping ExportSink) throws {
    self.base64 = base64
    out = OutputBuffer(sink)
    try out.append(base64 ? "name,content_b64\r\n" : "name,content\r\n")
  }

  /// Writes the record of `entry`.
  ///
  /// - Throws: `ExportError.largeNeedsBase64` for a large content without `base64`; what
  ///   reading the content or the sink throws.
  public func write(_ entry: some ExportableEntry) throws {
    try Array(entry.name.utf8).withUnsafeBytes { try field($0) }
    try out.append(UInt8(ascii: ","))
    if base64 {
      var encoder = Base64Encoder()
      try entry.stream { try encoder.encode($0, into: out) }
      try encoder.finish(into: out)
    } else {
      guard !entry.isLarge else {
        throw ExportError.largeNeedsBase64(name: entry.name)
      }
      try entry.content().withBytes { try field($0) }
    }
    try out.append("\r\n")
  }

  /// Hands the rest to the sink.
  ///
  /// - Throws: what the sink throws.
  public func finish() throws { try out.flush() }

  /// One field, quoted when it must be (RFC 4180).
  private func field(_ bytes: UnsafeRawBufferPointer) throws {
    let special: Set<UInt8> = [0x2C, 0x22, 0x0D, 0x0A]
    guard bytes.contains(where: special.contains) else {
      try out.append(bytes)
      return
    }
    try out.append(0x22)
    for byte in bytes {
      if byte == 0x22 { try out.append(0x22) }
      try out.append(byte)
    }
    try out.append(0x22)
  }
}
