import VaultCore
import VaultCrypto
import VaultFormat

/// Bitwarden's unencrypted JSON export (`vault(1)` IMPORT): `{"encrypted": false, "folders":
/// [{"id", "name"}], "items": [...]}`.
///
/// Each item of `items` becomes one entry in the fields convention. Its name is the item's
/// `name`, after its folder's name and `/` when `folderId` names a folder (a nested Bitwarden
/// folder is already named `Parent/Child`). A login (type 1) has its password as the first
/// line (empty when it has none), then `username`, a `url` for each URI (`url`, `url-2`, …)
/// and `otp` (its TOTP, a URI or a bare secret). Every other type has an empty first line and
/// the string members of its object as fields under their own names, in the export's order:
/// a card (3) `cardholderName`, `brand`, `number`, `expMonth`, `expYear`, `code`; an identity
/// (4) `title`, `firstName` … `licenseNumber`; an SSH key (5) `privateKey`, `publicKey`,
/// `keyFingerprint`; likewise a bank account (6), driver's license (7) or passport (8); a secure
/// note (2) has none. Then come the custom fields in order, each under its name: text and
/// hidden fields with their value, a boolean field with `true` or `false`, a linked field with
/// the value of the property it links to (the login's username or password, a card's or an
/// identity's member). The notes close the entry. Empty values are left out (except custom
/// fields). An item with the master-password re-prompt (`reprompt` 1) comes in guarded. Items
/// in the trash (`deletedDate` set), favourites, password history, attachments and collections
/// are not kept. Errors name the item as `record N` (from 1), or
/// the line for JSON that is not well formed.
public enum BitwardenJSONReader: ImportReader {
  /// The member holding each item type's data, by the type's number.
  static let typeMembers: [Int: String] = [
    1: "login", 2: "secureNote", 3: "card", 4: "identity", 5: "sshKey", 6: "bankAccount",
    7: "driversLicense", 8: "passport",
  ]

  /// The member a linked custom field's `linkedId` names, in the object of its item's type
  /// (Bitwarden's `LinkedIdType`): login 100–101, card 300–305, identity 400–418.
  static let linkedMembers: [Int: String] = [
    100: "username", 101: "password", 300: "cardholderName", 301: "expMonth", 302: "expYear",
    303: "code", 304: "brand", 305: "number", 400: "title", 401: "middleName", 402: "address1",
    403: "address2", 404: "address3", 405: "city", 406: "state", 407: "postalCode",
    408: "country", 409: "company", 410: "email", 411: "phone", 412: "ssn", 413: "username",
    414: "passportNumber", 415: "licenseNumber", 416: "firstName", 417: "lastName",
  ]

  /// An identity's full name (`linkedId` 418): its first, middle and last names.
  static let fullName = 418

  /// Every item, in order.
  ///
  /// - Throws: `TransferError` at the line or record of the first fault.
  public static func read(_ source: ImportSource) throws -> TransferBatch {
    try TransferBatch.collecting { try read(source, each: $0) }
  }

  /// Hands each item's entry to `sink` in the export's order.
  ///
  /// - Throws: `TransferError` at the line or record of the first fault; what `sink` throws.
  public static func read(_ source: ImportSource, each sink: (TransferItem) throws -> Void)
    throws
  {
    guard case .bytes(let bytes) = source else {
      throw TransferError(.source(.folderGiven(.bitwardenJSON)))
    }
    let root = try GuardedJSON(
      reading: bytes, range: TextLines.byteOrderMarkLength(bytes)..<bytes.count
    ).root
    // Both encrypted forms (account-restricted, with `items`; password-protected, with `data`
    // and no `items`) are said to be encrypted before anything else is looked at.
    if root.kind == .object, root["encrypted"]?.bool == true {
      throw TransferError(.bitwarden(.encrypted), at: .line(root["encrypted"]?.line ?? 1))
    }
    guard root.kind == .object, let items = root["items"], items.kind == .array else {
      throw TransferError(.bitwarden(.notAnExport), at: .line(root.line))
    }
    let folders = try folderNames(root["folders"])
    for (index, item) in items.elements.enumerated() {
      let location = SourceLocation.record(index + 1)
      guard let entry = try entry(item, folders: folders, at: location) else { continue }
      try sink(.entry(entry))
    }
  }

  /// The name of each folder by its id.
  static func folderNames(_ folders: GuardedJSON.Value?) throws -> [String: String] {
    guard let folders, folders.kind != .null else { return [:] }
    guard folders.kind == .array else {
      throw TransferError(.bitwarden(.foldersNotAnArray), at: .line(folders.line))
    }
    var names: [String: String] = [:]
    for folder in folders.elements {
      let location = SourceLocation.line(folder.line)
      guard folder.kind == .object,
        let id = try JSONShape.text(folder, "id", required: true, at: location),
        let name = try JSONShape.text(folder, "name", required: true, at: location)
      else { throw TransferError(.bitwarden(.folderMalformed), at: location) }
      names[id] = name
    }
    return names
  }

  /// The entry of one item, or nil for an item in the trash.
  static func entry(
    _ item: GuardedJSON.Value, folders: [String: String], at location: SourceLocation
  )
    throws -> TransferEntry?
  {
    func fail(_ fault: BitwardenFault) -> TransferError {
      TransferError(.bitwarden(fault), at: location)
    }
    guard item.kind == .object else { throw fail(.itemNotAnObject(item.kind)) }
    if let deleted = item["deletedDate"], deleted.kind != .null { return nil }
    guard let type = item["type"]?.integer else { throw fail(.typeNotANumber) }
    guard let member = typeMembers[type] else { throw fail(.unknownType(type)) }
    var name = try JSONShape.text(item, "name", required: true, at: location) ?? ""
    if let folderID = try JSONShape.text(item, "folderId", at: location) {
      guard let folder = folders[folderID] else {
        throw fail(.unknownFolder(folderID))
      }
      name = folder + "/" + name
    }
    let data = item[member].flatMap { $0.kind == .object ? $0 : nil }
    var password: SecureBytes?
    var fields: [(key: String, value: SecureBytes)] = []
    func add(_ key: String, _ value: SecureBytes?) {
      if let value, value.count > 0 { fields.append((key, value)) }
    }
    if let data, type == 1 {
      password = try JSONShape.bytes(data, "password", at: location)
      add("username", try JSONShape.bytes(data, "username", at: location))
      for uri in data["uris"]?.elements ?? [] where uri.kind == .object {
        add("url", try JSONShape.bytes(uri, "uri", at: location))
      }
      add("otp", try JSONShape.bytes(data, "totp", at: location))
    } else if let data {
      for (key, value) in data.members where value.kind == .string { add(key, value.bytes()) }
    }
    for field in item["fields"]?.elements ?? [] {
      guard field.kind == .object else {
        throw fail(.customFieldNotAnObject(field.kind))
      }
      let key = try JSONShape.text(field, "name", at: location) ?? ""
      var value = try JSONShape.bytes(field, "value", at: location)
      if field["type"]?.integer == 3 {
        value = linkedValue(field["linkedId"]?.integer, in: data)
      }
      fields.append((key, value ?? SecureBytes(count: 0, packed: true)))
    }
    let notes = try JSONShape.bytes(item, "notes", at: location)
    let content: SecureBytes
    do {
      content = try EntryContent.composeKeepingEmpty(
        password: password ?? SecureBytes(count: 0, packed: true), fields: fields, notes: notes)
    } catch let error as TransferError {
      throw TransferError(error.reason, at: location)
    }
    var entry = TransferEntry(name: name, content: content, location: location)
    // The master-password re-prompt is what a guarded entry is: each read asks again.
    entry.guarded = item["reprompt"]?.integer == 1
    return entry
  }

  /// The value of the member of `data` that `linkedID` names, or nil when it names none.
  static func linkedValue(_ linkedID: Int?, in data: GuardedJSON.Value?) -> SecureBytes? {
    guard let linkedID, let data else { return nil }
    if linkedID == fullName {
      var out = ByteBuilder(packed: true)
      for part in ["firstName", "middleName", "lastName"] {
        guard let value = data[part]?.bytes(), value.count > 0 else { continue }
        if out.count > 0 { out.append(0x20) }
        out.append(value)
      }
      return out.finish()
    }
    return linkedMembers[linkedID].flatMap { data[$0]?.bytes() }
  }
}
