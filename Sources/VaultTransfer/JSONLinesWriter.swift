import VaultCore

/// Writes the `jsonl` format as `vault import --from jsonl` reads it (`JSONLinesReader` on the
/// import side): one JSON object per line, ended by LF, `{"name":NAME,"content":TEXT}` when the
/// content is valid UTF-8 and `{"name":NAME,"content_b64":BASE64}` otherwise.
///
/// Strings escape `"`, `\`, every control character and DEL (`\n`, `\r`, `\t`, else `\u00XX`),
/// so a line holds no raw line break; base64 is standard, padded, without line breaks. A large
/// content (above `EntryStore.streamThreshold`) is always `content_b64`, streamed piece by piece:
/// it is never read whole to learn whether it is text.
///
/// Plaintext leaves guarded memory only where the line is handed to the sink.
public final class JSONLinesWriter {
  private let out: OutputBuffer

  /// A writer handing its bytes to `sink`.
  public init(to sink: @escaping ExportSink) { out = OutputBuffer(sink) }

  /// Writes the line of `entry`.
  ///
  /// - Throws: what reading the content or the sink throws.
  public func write(_ entry: some ExportableEntry) throws {
    try out.append("{\"name\":")
    try out.appendJSONString(entry.name)
    if entry.isLarge {
      try out.append(",\"content_b64\":\"")
      var encoder = Base64Encoder()
      try entry.stream { try encoder.encode($0, into: out) }
      try encoder.finish(into: out)
      try out.append("\"}\n")
      return
    }
    let content = try entry.content()
    try content.withBytes { bytes in
      if UTF8Text.isValid(bytes) {
        try out.append(",\"content\":")
        try out.appendJSONString(bytes)
      } else {
        try out.append(",\"content_b64\":\"")
        var encoder = Base64Encoder()
        try encoder.encode(bytes, into: out)
        try encoder.finish(into: out)
        try out.append(UInt8(ascii: "\""))
      }
    }
    try out.append("}\n")
  }

  /// Hands the rest to the sink.
  ///
  /// - Throws: what the sink throws.
  public func finish() throws { try out.flush() }
}
