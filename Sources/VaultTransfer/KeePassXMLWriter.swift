import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// Writes KeePass 2 XML (`KeePassFile` with `Meta` and `Root`), as KeePass's "KeePass XML (2.x)"
/// import and `keepassxc-cli import` read it, for leaving vault for KeePass.
///
/// The root group is named `Root`; each folder of a name is a group inside its parent's, each
/// entry an `Entry` of its folder's group, titled by the last segment of its name, so that
/// `KeePassXMLReader` names it back the same. A group lists its entries before its groups. The
/// content is laid out by `LeavingLayout` with the slots `username` (`UserName`) and `url`
/// (`URL`): the first line is `Password` (`ProtectInMemory="True"`), every other field line a
/// custom string named by its key (a key that is one of KeePass's own names, or given twice, gets
/// `-2`, `-3`…), the rest `Notes`; `KeePassXMLReader` composes the same bytes back for every
/// entry not counted as reshaped. `Times` carries the entry's creation and last change (ISO 8601
/// UTC). The guard has no KeePass equivalent and is not written.
///
/// Text is escaped for XML 1.0: `&`, `<` and `>` as entities, CR as `&#13;` (a parser would
/// read a raw CR as LF). Left out, with the reason: contents that are not UTF-8 text or hold a
/// character XML 1.0 cannot carry (a control character other than tab, LF and CR; U+FFFE,
/// U+FFFF), large contents, and contents no layout makes into an entry its reader accepts.
/// UUIDs are 16 random bytes in base64.
///
/// Plaintext leaves guarded memory only where the output is handed to the sink.
public final class KeePassXMLWriter {
  /// The slots of an entry, in the order `KeePassXMLReader` composes them back.
  static let slotKeys = ["username", "url"]
  /// KeePass's own string names, which a custom string cannot take.
  static let standardNames = ["Title", "UserName", "Password", "URL", "Notes"]

  private let out: OutputBuffer
  private let identifier: () -> [UInt8]
  /// The folders of the groups open below the root.
  private var open: [String] = []

  /// A writer with UUIDs from `identifier` (16 bytes each), handing its bytes to `sink`.
  public init(identifier: @escaping () -> [UInt8], to sink: @escaping ExportSink) {
    self.identifier = identifier
    out = OutputBuffer(sink)
  }

  /// `entries` in the order the writer needs: group by group, depth first, each group's own
  /// entries before its groups, names in UTF-8 byte order within a group.
  public static func ordered(_ entries: [any ExportableEntry]) -> [any ExportableEntry] {
    func segments(_ name: String) -> [[UInt8]] {
      name.split(separator: "/", omittingEmptySubsequences: false).map { Array($0.utf8) }
    }
    return entries.map { (segments($0.name), $0) }.sorted { a, b in
      let (x, y) = (a.0, b.0)
      for index in 0..<min(x.count, y.count) {
        let xFolder = index < x.count - 1
        let yFolder = index < y.count - 1
        if xFolder != yFolder { return yFolder }
        if x[index] != y[index] { return x[index].lexicographicallyPrecedes(y[index]) }
      }
      return x.count < y.count
    }.map(\.1)
  }

  /// Writes the document's start and the root group's start.
  ///
  /// - Throws: what the sink throws.
  public func begin() throws {
    try out.append(
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<KeePassFile>\n"
        + "\t<Meta>\n\t\t<Generator>vault</Generator>\n\t</Meta>\n\t<Root>\n\t\t<Group>\n")
    try out.append("\t\t\t<UUID>\(uuid())</UUID>\n\t\t\t<Name>Root</Name>\n")
  }

  private func uuid() -> String { Data(identifier()).base64EncodedString() }

  /// Writes the entry of `entry` inside its folder's group, or leaves it out.
  ///
  /// - Precondition: entries come in the order of `ordered`.
  /// - Throws: what reading the content or the sink throws.
  func write(_ entry: some ExportableEntry) throws -> LeavingOutcome {
    guard !entry.isLarge else {
      return .leftOut(.tooLarge(.keepassXML, bytes: entry.length))
    }
    let content = try entry.content()
    guard content.withBytes(Self.isXMLText) else {
      return .leftOut(.contentNotXMLText)
    }
    guard Array(entry.name.utf8).withUnsafeBytes(Self.isXMLText) else {
      return .leftOut(.nameNotXMLText)
    }
    let layout: LeavingLayout
    let made = LeavingLayout.make(
      content, slotKeys: Self.slotKeys, reserved: Set(Self.standardNames.map { $0.lowercased() }))
    switch made {
    case .success(let value): layout = value
    case .failure(let leftOut): return .leftOut(leftOut.reason)
    }
    let segments = entry.name.split(separator: "/", omittingEmptySubsequences: false).map(
      String.init)
    try enter(Array(segments.dropLast()))
    let indent = String(repeating: "\t", count: open.count + 3)
    try out.append("\(indent)<Entry>\n\(indent)\t<UUID>\(uuid())</UUID>\n")
    try out.append(
      "\(indent)\t<Times>\n\(indent)\t\t<CreationTime>\(entry.created)</CreationTime>\n"
        + "\(indent)\t\t<LastModificationTime>\(entry.updated)</LastModificationTime>\n"
        + "\(indent)\t</Times>\n")
    let title = SecureBytes(copying: Array((segments.last ?? "").utf8))
    let empty = SecureBytes(count: 0)
    let strings: [(String, SecureBytes, Bool)] =
      [
        ("Title", title, false), ("UserName", layout.slots[0] ?? empty, false),
        ("Password", layout.password, true), ("URL", layout.slots[1] ?? empty, false),
        ("Notes", layout.notes, false),
      ] + layout.custom.map { ($0.key, $0.value, false) }
    for (key, value, protected) in strings {
      try out.append("\(indent)\t<String>\n\(indent)\t\t<Key>")
      try Array(key.utf8).withUnsafeBytes { try text($0) }
      try out.append("</Key>\n\(indent)\t\t<Value\(protected ? " ProtectInMemory=\"True\"" : "")>")
      try value.withBytes { try text($0) }
      try out.append("</Value>\n\(indent)\t</String>\n")
    }
    try out.append("\(indent)</Entry>\n")
    return layout.outcome
  }

  /// Closes the groups not on `folders`' path and opens those of it not open yet.
  private func enter(_ folders: [String]) throws {
    var common = 0
    while common < min(open.count, folders.count) && open[common] == folders[common] {
      common += 1
    }
    while open.count > common {
      try out.append(String(repeating: "\t", count: open.count + 2) + "</Group>\n")
      open.removeLast()
    }
    for folder in folders[common...] {
      let indent = String(repeating: "\t", count: open.count + 3)
      try out.append("\(indent)<Group>\n\(indent)\t<UUID>\(uuid())</UUID>\n\(indent)\t<Name>")
      try Array(folder.utf8).withUnsafeBytes { try text($0) }
      try out.append("</Name>\n")
      open.append(folder)
    }
  }

  /// Writes the end of every open group and of the document, and hands the rest to the sink.
  ///
  /// - Throws: what the sink throws.
  public func finish() throws {
    try enter([])
    try out.append("\t\t</Group>\n\t</Root>\n</KeePassFile>\n")
    try out.flush()
  }

  /// `bytes` as XML character data: `&`, `<`, `>` as entities, CR as `&#13;`.
  private func text(_ bytes: UnsafeRawBufferPointer) throws {
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "&"): try out.append("&amp;")
      case UInt8(ascii: "<"): try out.append("&lt;")
      case UInt8(ascii: ">"): try out.append("&gt;")
      case 0x0D: try out.append("&#13;")
      default: try out.append(byte)
      }
    }
  }

  /// True for UTF-8 text of characters XML 1.0 allows: no NUL or other control character but
  /// tab, LF and CR, no U+FFFE or U+FFFF.
  static func isXMLText(_ bytes: UnsafeRawBufferPointer) -> Bool {
    // Decoded in place: no `String` of the content.
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: continue
        case 0..<0x20, 0xFFFE, 0xFFFF: return false
        default: continue
        }
      case .emptyInput: return true
      case .error: return false
      }
    }
  }
}
