import VaultCore
import VaultCrypto
import VaultFormat

/// Writes Bitwarden's unencrypted JSON export (`{"encrypted": false, "folders": […], "items":
/// […]}`, indented by two spaces as Bitwarden writes it), for leaving vault for Bitwarden.
///
/// Each folder of a name (`a` and `a/b` for `a/b/c`) is a folder named by its path, which
/// Bitwarden shows nested; each entry is an item of type 1 (login) named by the last segment of
/// its name, in its folder (`folderId`, null at the top). The content is laid out by
/// `LeavingLayout` with the slots `username` (`login.username`), `url` (`login.uris[0].uri`) and
/// `otp` (`login.totp`, which takes an `otpauth://` URI): the first line is `login.password`,
/// every other field line a custom field of type 0 (text), the rest `notes`. A reader that
/// composes a content back from an item as `EntryContent.compose(password: login.password,
/// fields: [username, url, otp (each when not empty), then fields[] in order], notes: notes)`
/// gets the same bytes for every entry not counted as reshaped. A guarded entry's item has
/// `reprompt` 1 (Bitwarden asks for the master password again); the times are the entry's
/// (`creationDate`, `revisionDate`).
///
/// Left out, with the reason: contents that are not UTF-8 text (JSON strings hold text), large
/// contents (above `EntryStore.streamThreshold`; a Bitwarden item holds text, not files), and
/// contents no layout makes into an item its reader accepts. Ids are random version-4 UUIDs.
///
/// Plaintext leaves guarded memory only where the output is handed to the sink.
public final class BitwardenJSONWriter {
  /// The slots of a login item, in the order a reader composes them back.
  static let slotKeys = ["username", "url", "otp"]

  private let out: OutputBuffer
  private let folders: [String]
  private var folderIDs: [String: String] = [:]
  private let identifier: () -> [UInt8]
  private var items = 0

  /// A writer for the entries named `names` (its folders are listed before the items), ids from
  /// `identifier` (16 bytes each), handing its bytes to `sink`.
  public init(
    names: [String], identifier: @escaping () -> [UInt8], to sink: @escaping ExportSink
  ) {
    var paths: Set<String> = []
    for name in names {
      let segments = name.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      for depth in segments.indices { paths.insert(segments[...depth].joined(separator: "/")) }
    }
    folders = paths.sorted { $0.precedesInByteOrder($1) }
    self.identifier = identifier
    out = OutputBuffer(sink)
  }

  /// A version-4 UUID from 16 bytes, in lower-case hex with its hyphens.
  static func uuid(_ raw: [UInt8]) -> String {
    var bytes = raw
    bytes[6] = bytes[6] & 0x0F | 0x40
    bytes[8] = bytes[8] & 0x3F | 0x80
    let hex = bytes.hex
    let cuts = [8, 12, 16, 20]
    var out = ""
    for (index, character) in hex.enumerated() {
      if cuts.contains(index) { out.append("-") }
      out.append(character)
    }
    return out
  }

  /// `2026-01-02T03:04:05.000Z` for `2026-01-02T03:04:05Z`, as Bitwarden writes its dates.
  static func date(_ utc: String) -> String { String(utc.dropLast()) + ".000Z" }

  /// Writes the document's start and its folders.
  ///
  /// - Throws: what the sink throws.
  public func begin() throws {
    try out.append("{\n  \"encrypted\": false,\n  \"folders\": [")
    for (index, folder) in folders.enumerated() {
      let id = Self.uuid(identifier())
      folderIDs[folder] = id
      try out.append(index == 0 ? "\n" : ",\n")
      try out.append("    {\n      \"id\": \"\(id)\",\n      \"name\": ")
      try out.appendJSONString(folder)
      try out.append("\n    }")
    }
    try out.append(folders.isEmpty ? "],\n  \"items\": [" : "\n  ],\n  \"items\": [")
  }

  /// Writes the item of `entry`, or leaves it out.
  ///
  /// - Throws: what reading the content or the sink throws.
  func write(_ entry: some ExportableEntry) throws -> LeavingOutcome {
    guard !entry.isLarge else {
      return .leftOut(.tooLarge(.bitwardenJSON, bytes: entry.length))
    }
    let layout: LeavingLayout
    switch LeavingLayout.make(try entry.content(), slotKeys: Self.slotKeys) {
    case .success(let made): layout = made
    case .failure(let leftOut): return .leftOut(leftOut.reason)
    }
    let segments = entry.name.split(separator: "/", omittingEmptySubsequences: false)
    let folder = segments.dropLast().joined(separator: "/")
    try out.append(items == 0 ? "\n    {\n" : ",\n    {\n")
    items += 1
    try out.append("      \"id\": \"\(Self.uuid(identifier()))\",\n")
    try out.append("      \"organizationId\": null,\n")
    let folderID = segments.count > 1 ? folderIDs[folder].map { "\"\($0)\"" } : nil
    try out.append("      \"folderId\": \(folderID ?? "null"),\n")
    try out.append("      \"type\": 1,\n")
    try out.append("      \"reprompt\": \(entry.guarded ? 1 : 0),\n")
    try out.append("      \"name\": ")
    try out.appendJSONString(String(segments.last ?? ""))
    try out.append(",\n      \"notes\": ")
    try string(layout.notes)
    try out.append(",\n      \"favorite\": false,\n")
    if !layout.custom.isEmpty {
      try out.append("      \"fields\": [")
      for (index, field) in layout.custom.enumerated() {
        try out.append(index == 0 ? "\n" : ",\n")
        try out.append("        {\n          \"name\": ")
        try out.appendJSONString(field.key)
        try out.append(",\n          \"value\": ")
        try field.value.withBytes { try out.appendJSONString($0) }
        try out.append(",\n          \"type\": 0,\n          \"linkedId\": null\n        }")
      }
      try out.append("\n      ],\n")
    }
    try out.append("      \"login\": {\n        \"uris\": [")
    if let url = layout.slots[1], url.count > 0 {
      try out.append("\n          {\n            \"match\": null,\n            \"uri\": ")
      try url.withBytes { try out.appendJSONString($0) }
      try out.append("\n          }\n        ")
    }
    try out.append("],\n        \"username\": ")
    try string(layout.slots[0])
    try out.append(",\n        \"password\": ")
    try string(layout.password)
    try out.append(",\n        \"totp\": ")
    try string(layout.slots[2])
    try out.append(",\n        \"fido2Credentials\": []\n      },\n")
    try out.append("      \"collectionIds\": null,\n")
    try out.append("      \"revisionDate\": \"\(Self.date(entry.updated))\",\n")
    try out.append("      \"creationDate\": \"\(Self.date(entry.created))\",\n")
    try out.append("      \"deletedDate\": null,\n      \"passwordHistory\": null\n    }")
    return layout.outcome
  }

  /// Writes the document's end and hands the rest to the sink.
  ///
  /// - Throws: what the sink throws.
  public func finish() throws {
    try out.append(items == 0 ? "]\n}\n" : "\n  ]\n}\n")
    try out.flush()
  }

  /// A JSON string, or `null` for nil or empty.
  private func string(_ value: SecureBytes?) throws {
    guard let value, value.count > 0 else { return try out.append("null") }
    try value.withBytes { try out.appendJSONString($0) }
  }
}
