import VaultCore
import VaultCrypto
import VaultFormat

/// The `jsonl` format: one JSON object per line, each an entry (`vault(1)` IMPORT).
///
/// An object has `name` (a string) and either the whole content, as `content` (a string, its
/// UTF-8 bytes) or `content_b64` (standard base64, any bytes), or the parts of a content in the
/// fields convention, composed by `EntryContent.compose`: `password` (a string of one line, the
/// first line; may be empty), `fields` (an object of strings, in order) and `notes` (a string).
/// Any other member is refused, as is a mix of the two forms. Lines hold only white space are
/// skipped; a line may end in CRLF; a UTF-8 byte order mark at the start of the file is skipped.
/// Every error names its line.
public enum JSONLinesReader: ImportReader {
  /// The members an entry's object may have.
  public static let members = ["name", "content", "content_b64", "password", "fields", "notes"]

  /// Every entry, in order.
  ///
  /// - Throws: `TransferError` at the line of the first fault.
  public static func read(_ source: ImportSource) throws -> TransferBatch {
    try TransferBatch.collecting { try read(source, each: $0) }
  }

  /// Hands each entry to `sink` as its line is read.
  ///
  /// - Throws: `TransferError` at the line of the first fault; what `sink` throws.
  public static func read(_ source: ImportSource, each sink: (TransferItem) throws -> Void)
    throws
  {
    guard case .bytes(let bytes) = source else {
      throw TransferError(.source(.folderGiven(.jsonl)))
    }
    var start = TextLines.byteOrderMarkLength(bytes)
    var number = 1
    while start < bytes.count {
      let stop = bytes.withBytes { TextLines.lineEnd($0, from: start) }
      if !bytes.withBytes({ TextLines.isBlank($0[start..<stop]) }) {
        let object = try GuardedJSON(reading: bytes, range: start..<stop, firstLine: number).root
        try sink(.entry(entry(object, at: .line(number))))
      }
      start = stop + 1
      number += 1
    }
  }

  /// The entry one line's object describes.
  static func entry(_ object: GuardedJSON.Value, at location: SourceLocation) throws
    -> TransferEntry
  {
    func fail(_ fault: JSONLinesFault) -> TransferError {
      TransferError(.jsonLines(fault), at: location)
    }
    guard object.kind == .object else { throw fail(.notAnObject(object.kind)) }
    for (key, _) in object.members where !members.contains(key) {
      throw fail(.unknownMember(key))
    }
    let name = try JSONShape.text(object, "name", required: true, at: location) ?? ""
    let whole = ["content", "content_b64"].filter { object[$0] != nil }
    let parts = ["password", "fields", "notes"].filter { object[$0] != nil }
    let content: SecureBytes
    switch (whole.count, parts.isEmpty) {
    case (2, _):
      throw fail(.bothContents)
    case (1, false):
      throw fail(.wholeAndParts(whole[0]))
    case (1, true):
      let value =
        try JSONShape.bytes(object, whole[0], at: location) ?? SecureBytes(count: 0, packed: true)
      if whole[0] == "content_b64" {
        do {
          content = try GuardedBase64.decode(value)
        } catch let error as TransferError {
          guard case .base64(let fault) = error.reason else { throw error }
          throw fail(.contentBase64(fault))
        }
      } else {
        content = value
      }
      guard content.count > 0 else { throw fail(.contentEmpty) }
    default:
      guard !parts.isEmpty else {
        throw fail(.noContent)
      }
      let password = try JSONShape.bytes(object, "password", at: location)
      let notes = try JSONShape.bytes(object, "notes", at: location)
      var fields: [(key: String, value: SecureBytes)] = []
      if let value = object["fields"] {
        guard value.kind == .object else {
          throw fail(.fieldsNotAnObject(value.kind))
        }
        for (key, field) in value.members {
          guard let bytes = field.bytes() else {
            throw fail(.fieldNotAString(key, field.kind))
          }
          fields.append((key, bytes))
        }
      }
      do {
        content = try EntryContent.composeKeepingEmpty(
          password: password, fields: fields, notes: notes)
      } catch let error as TransferError {
        throw TransferError(error.reason, at: location)
      }
    }
    return TransferEntry(name: name, content: content, location: location)
  }
}

/// Reading the members a format expects, with errors that name the member and the item.
enum JSONShape {
  /// The string member `key` in guarded memory; nil when it is missing or null (refused when
  /// `required`).
  ///
  /// - Throws: `TransferError` at `location` when it is missing and required, or not a string.
  static func bytes(
    _ object: GuardedJSON.Value, _ key: String, required: Bool = false, at location: SourceLocation
  ) throws -> SecureBytes? {
    guard let value = object[key], value.kind != .null else {
      if required { throw TransferError(.jsonMember(.missing(key)), at: location) }
      return nil
    }
    guard let bytes = value.bytes() else {
      throw TransferError(.jsonMember(.notAString(key, value.kind)), at: location)
    }
    return bytes
  }

  /// The string member `key` as a Swift string, for what is not secret; as `bytes`.
  static func text(
    _ object: GuardedJSON.Value, _ key: String, required: Bool = false, at location: SourceLocation
  ) throws -> String? {
    guard let value = object[key], value.kind != .null else {
      if required { throw TransferError(.jsonMember(.missing(key)), at: location) }
      return nil
    }
    guard let text = value.text() else {
      throw TransferError(.jsonMember(.notAString(key, value.kind)), at: location)
    }
    return text
  }
}

/// Lines of a text source in guarded memory, found in place.
enum TextLines {
  /// 3 when the bytes start with a UTF-8 byte order mark, else 0.
  static func byteOrderMarkLength(_ bytes: SecureBytes) -> Int {
    bytes.withBytes { $0.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0 }
  }

  /// The offset of the LF that ends the line starting at `start`, or the end of the bytes.
  static func lineEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    var stop = start
    while stop < bytes.count && bytes[stop] != 0x0A { stop += 1 }
    return stop
  }

  /// True when `line` holds only spaces, tabs and CRs.
  static func isBlank(_ line: UnsafeRawBufferPointer.SubSequence) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
  }
}
