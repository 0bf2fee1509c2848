import VaultCore
import VaultCrypto
import VaultFormat

/// The `keepass-xml` format: the KeePass 2 XML export (KeePass's "KeePass XML (2.x)", or
/// `keepassxc-cli export --format xml`), read with libxml2's `xmlTextReader` (`XMLTextReader`).
///
/// The document is `KeePassFile` with `Meta` and `Root`; `Root` holds the root group, groups
/// nest, and each `Group/Entry` holds `String` elements, each a `Key` and a `Value`. Each entry
/// is one entry:
///
/// - its name is the names of its groups below the root group (the root's own name, such as
///   `Passwords` or `Root`, is left out), then its `Title`: an entry of the root group is named
///   by its title alone; a `/` in a group name or title makes one more folder;
/// - its content is made by `EntryContent.compose`: `Password` as the first line, then the fields
///   `username` (`UserName`) and `url` (`URL`) when not empty, then every other `String` (the
///   custom attributes, such as KeePassXC's `otp`) as a field named by its key, empty ones
///   included, in document order, then `tags` (`Tags`) when not empty, then `Notes`.
///
/// Skipped, as documented for the format: the group `Meta/RecycleBinUUID` names (the Recycle
/// Bin) and every group and entry inside it, since those were deleted; the `History` of each
/// entry (earlier versions: only the current one is imported); attachments (`Binary`), icons,
/// times, auto-type settings and `DeletedObjects`.
///
/// A value marked `ProtectInMemory="True"` is plaintext in an export and is read as it is; a
/// value marked `Protected="True"` is encrypted with the database's inner stream key (a
/// database's own XML, not an export) and is refused. A document with a document type
/// declaration (`<!DOCTYPE`, which could declare entities) is refused before it is parsed, and
/// external entities are never loaded. Errors are at `.line(n)`: the line of the entry's
/// `<Entry>` tag, or where the XML is not well-formed. An empty title, a password holding a line
/// break and an entry with nothing in it are refused; an empty password is an empty first line.
/// Two entries with one name are both returned, in order.
///
/// Memory: the document is parsed from the guarded input without a copy of its own, but
/// libxml2 decodes text into its unguarded heap buffers, which are not wiped; each value is moved
/// into guarded memory as it arrives. Prefer
/// a format vault reads in guarded memory alone (`keepass-csv`) where that matters.
public enum KeePassXMLReader: ImportReader {
  /// Reads every current entry outside the Recycle Bin of `source` (`.bytes` only).
  ///
  /// - Throws: `TransferError` at the line of the first fault, or without a location for a
  ///   document that is not a KeePass XML file or a folder source.
  public static func read(_ source: ImportSource) throws -> TransferBatch {
    guard case .bytes(let bytes) = source else {
      throw TransferError(.source(.folderGiven(.keepassXML)))
    }
    // KeePass writes UTF-8. A document in another encoding (UTF-16 or UTF-32, which a NUL byte
    // shows) could spell a declaration the byte search below does not see.
    let notUTF8 = bytes.withBytes { $0.contains(0) }
    guard !notUTF8 else {
      throw TransferError(.keepassXML(.notUTF8))
    }
    let declaresType = bytes.withBytes { contains($0, Array("<!DOCTYPE".utf8)) }
    guard !declaresType else {
      throw TransferError(.keepassXML(.declaresDocumentType))
    }
    let document = KeePassDocument()
    // An empty file is no KeePass file (below), not a document libxml2 refuses.
    let blank = bytes.withBytes { $0.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) } }
    if !blank {
      try bytes.withBytes { buffer in
        do {
          let reader = try XMLTextReader(buffer)
          while document.failure == nil, let node = try reader.read() {
            switch node {
            case .start(let name, let empty, let line):
              document.start(name, line: line, attribute: reader.attribute)
              if empty && document.failure == nil { document.end(name) }
            case .end(let name): document.end(name)
            case .text(let text): document.characters(text)
            case .other: break
            }
          }
        } catch XMLTextReader.Failure.parse(let code, let line) {
          document.fail(.notWellFormed(code: code), line: line)
        } catch XMLTextReader.Failure.notLoaded(let reason) {
          throw TransferError(.keepassXML(.libxml2NotLoaded(reason: reason)))
        } catch XMLTextReader.Failure.lacksSymbol(let name) {
          throw TransferError(.keepassXML(.libxml2LacksSymbol(name)))
        }
      }
    }
    if let failure = document.failure { throw failure }
    guard document.sawKeePassFile else {
      throw TransferError(.keepassXML(.noKeePassFile))
    }
    var entries: [TransferEntry] = []
    for entry in document.entries where !entry.group.isInside(uuid: document.recycleBin) {
      entries.append(try entry.transferEntry())
    }
    return TransferBatch(entries: entries)
  }

  /// True when `needle` occurs in `bytes`.
  static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
    guard bytes.count >= needle.count else { return false }
    for start in 0...(bytes.count - needle.count)
    where bytes[start] == needle[0] && zip(bytes[start...], needle).allSatisfy({ $0 == $1 }) {
      return true
    }
    return false
  }
}

/// One group of the tree: its name and UUID as read, and the group it is in.
final class KeePassGroup {
  let parent: KeePassGroup?
  var name = ""
  var uuid = ""

  init(parent: KeePassGroup?) { self.parent = parent }

  /// The names from below the root group down to this one.
  var path: [String] {
    guard let parent else { return [] }
    return parent.path + [name]
  }

  /// True when this group or one it is in has the UUID `uuid` (the Recycle Bin's).
  func isInside(uuid: String) -> Bool {
    guard !uuid.isEmpty else { return false }
    return self.uuid == uuid || parent?.isInside(uuid: uuid) == true
  }
}

/// One entry as read: its group, the line of its tag, its strings and tags.
final class KeePassEntry {
  let group: KeePassGroup
  let line: Int
  var strings: [(key: String, value: SecureBytes)] = []
  var tags = ""

  init(group: KeePassGroup, line: Int) {
    self.group = group
    self.line = line
  }

  /// The standard strings, which are no custom attributes.
  static let standard = ["Title", "UserName", "Password", "URL", "Notes"]

  func value(_ key: String) -> SecureBytes? { strings.first { $0.key == key }?.value }

  /// The entry with its name and content.
  ///
  /// - Throws: `TransferError` at the entry's line for an empty title, a password with a line
  ///   break or an empty entry.
  func transferEntry() throws -> TransferEntry {
    let at = SourceLocation.line(line)
    let title = value("Title").flatMap { $0.withBytes { UTF8Text.string($0) } } ?? ""
    guard !title.isEmpty else { throw TransferError(.item(.noTitle), at: at) }
    var fields: [(key: String, value: SecureBytes)] = []
    for (key, field) in [("UserName", "username"), ("URL", "url")] {
      if let value = value(key), value.count > 0 { fields.append((field, value)) }
    }
    fields += strings.filter { !Self.standard.contains($0.key) }
    if !tags.isEmpty {
      fields.append(("tags", SecureBytes(copying: Array(tags.utf8), packed: true)))
    }
    do {
      let content = try EntryContent.composeKeepingEmpty(
        password: value("Password") ?? SecureBytes(count: 0, packed: true), fields: fields,
        notes: value("Notes"))
      return TransferEntry(
        name: (group.path + [title]).joined(separator: "/"), content: content, location: at)
    } catch let error as TransferError {
      throw TransferError(error.reason, at: at)
    }
  }
}

/// What collects groups and current entries as the reader steps through the document.
final class KeePassDocument {
  /// The first fault, which stops the reading.
  private(set) var failure: TransferError?
  private(set) var sawKeePassFile = false
  /// `Meta/RecycleBinUUID`, empty when there is none.
  private(set) var recycleBin = ""
  private(set) var entries: [KeePassEntry] = []

  /// The open elements, outermost first.
  private var elements: [String] = []
  private var group: KeePassGroup?
  private var entry: KeePassEntry?
  /// The depth of `History` elements open inside the current entry.
  private var history = 0
  private var key = ""
  /// The value being read, between `<Value>` and `</Value>`.
  private var value: ByteBuilder?
  /// The value of the current `String`, once its `</Value>` is read.
  private var finished: SecureBytes?
  /// The text of a non-secret element (a name, UUID, key or tags).
  private var text = ""

  /// Records the first fault at `line`; the reader then stops.
  func fail(_ fault: KeePassXMLFault, line: Int) {
    guard failure == nil else { return }
    failure = TransferError(.keepassXML(fault), at: .line(line))
  }

  /// The path of open elements ends with `suffix`.
  private func inside(_ suffix: String...) -> Bool {
    elements.count >= suffix.count && Array(elements.suffix(suffix.count)) == suffix
  }

  /// An element starts on `line`; `attribute` reads one of its attributes.
  func start(_ name: String, line: Int, attribute: (String) -> String?) {
    if elements.isEmpty {
      guard name == "KeePassFile" else {
        fail(.otherRoot(name), line: line)
        return
      }
      sawKeePassFile = true
    }
    elements.append(name)
    text = ""
    switch name {
    case "Group" where history == 0 && (inside("Root", "Group") || inside("Group", "Group")):
      group = KeePassGroup(parent: inside("Root", "Group") ? nil : group)
    case "Entry" where history == 0 && inside("Group", "Entry"):
      if let group { entry = KeePassEntry(group: group, line: line) }
    case "History" where entry != nil:
      history += 1
    case "String" where history == 0 && entry != nil:
      key = ""
      value = nil
      finished = nil
    case "Value" where history == 0 && entry != nil && inside("String", "Value"):
      if attribute("Protected")?.lowercased() == "true" {
        fail(.protectedValue(key: key), line: line)
        return
      }
      value = ByteBuilder(packed: true)
    default: break
    }
  }

  /// The element `name` ends.
  func end(_ name: String) {
    defer {
      elements.removeLast()
      text = ""
    }
    if history > 0 {
      if name == "History" { history -= 1 }
      return
    }
    switch name {
    case "RecycleBinUUID" where inside("Meta", "RecycleBinUUID"): recycleBin = text
    case "Name" where inside("Group", "Name"): group?.name = text
    case "UUID" where inside("Group", "UUID"): group?.uuid = text
    case "Key" where entry != nil && inside("String", "Key"): key = text
    case "Tags" where inside("Entry", "Tags"): entry?.tags = text
    case "Value" where value != nil:
      finished = value?.finish()
      value = nil
    case "String" where entry != nil:
      entry?.strings.append((key, finished ?? SecureBytes(count: 0, packed: true)))
      finished = nil
    case "Entry" where entry != nil && inside("Group", "Entry"):
      if let entry { entries.append(entry) }
      entry = nil
    case "Group" where group != nil && (inside("Root", "Group") || inside("Group", "Group")):
      group = group?.parent
    default: break
    }
  }

  /// Text (or CDATA) inside the innermost open element.
  func characters(_ bytes: UnsafeRawBufferPointer) {
    if value != nil {
      value?.append(bytes)
    } else if elements.last.map(["Name", "UUID", "Key", "Tags", "RecycleBinUUID"].contains) == true
    {
      text += String(decoding: bytes, as: UTF8.self)
    }
  }
}
