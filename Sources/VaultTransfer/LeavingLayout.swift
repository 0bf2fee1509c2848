import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// What a writer of a format for leaving (`bitwarden-json`, `keepass-xml`) did with an entry.
enum LeavingOutcome: Equatable {
  /// Written; its format's reader composes the same bytes back.
  case exact
  /// Written; its format's reader composes it back in the fields convention's layout, not byte
  /// for byte (line endings, the order of fields, blank lines, a missing final LF).
  case reshaped
  /// Not written, for this reason.
  case leftOut(LeftOutReason)
}

/// An entry's content laid out in the slots of a password manager's item: the password, named
/// slots (a user name, a URL…), custom fields and notes, chosen so that the format's reader,
/// which composes a content back with `EntryContent.compose` (the password, then the non-empty
/// slots in their order, then the custom fields, then the notes), gives the same bytes whenever
/// it can.
///
/// Two layouts are tried: *structured* (the first line as the password, the first field of each
/// slot's key, without regard to case, in its slot, every other field line as a custom field,
/// the rest as notes, as `EntryFields` reads them) and *notes only* (the first line as the
/// password and everything after its LF, byte for byte, as notes). The structured one is used
/// when it composes back exactly, or when a field fills a slot (a user name in its slot is what
/// someone leaving for that manager wants, even when the fields come back in the slots' order:
/// reshaped); an entry with no slot's field goes as notes only when that composes back exactly;
/// else the structured one, reshaped, unless its reader would refuse it (a first line with a
/// carriage return, or line breaks only; one line break alone is an item with only a name).
struct LeavingLayout {
  /// The first line, without its line ending.
  let password: SecureBytes
  /// Each slot's value (nil when the slot is empty), in the order of the slots.
  let slots: [SecureBytes?]
  /// The custom fields, in order, keys as the writer writes them.
  let custom: [(key: String, value: SecureBytes)]
  /// The notes (empty for none).
  let notes: SecureBytes
  /// Exact or reshaped.
  let outcome: LeavingOutcome

  /// The layout of `content` for slots of `slotKeys` (lower case, such as `username`).
  ///
  /// With `reserved` (lower-cased names a format gives its own fields), a custom field's key
  /// that matches one of them, or a key written before it (without regard to case), is
  /// renamed `KEY-2`, `KEY-3`… (`EntryContent.unique`); without, keys are written as they are.
  ///
  /// - Returns: the layout, or the reason the entry is left out (not UTF-8 text, or nothing
  ///   its reader accepts).
  static func make(
    _ content: SecureBytes, slotKeys: [String],
    reserved: Set<String>? = nil
  ) -> Result<LeavingLayout, LeftOut> {
    if content.withBytes({ $0.elementsEqual([0x0A]) }) {
      // One empty line is what the readers make of an item with only a name: it goes back as one.
      return .success(
        LeavingLayout(
          password: SecureBytes(count: 0), slots: slotKeys.map { _ in nil }, custom: [],
          notes: SecureBytes(count: 0), outcome: .exact))
    }
    guard let fields = try? EntryFields(content) else {
      return .failure(LeftOut(.contentNotText))
    }
    var slots: [SecureBytes?] = slotKeys.map { _ in nil }
    var custom: [(key: String, value: SecureBytes)] = []
    var keys = EntryContent.UniqueKeys(used: reserved ?? [])
    for field in fields.allFields {
      if let slot = slotKeys.firstIndex(of: field.key.lowercased()), slots[slot] == nil {
        slots[slot] = field.value
        continue
      }
      let key = reserved == nil ? field.key : keys.claim(field.key)
      custom.append((key, field.value))
    }
    let password = fields.password
    let structured = LeavingLayout(
      password: password, slots: slots, custom: custom, notes: fields.notes, outcome: .exact)
    if structured.composesBack(content, slotKeys: slotKeys) { return .success(structured) }
    let fillsASlot = slots.contains { $0 != nil }
    if fillsASlot, (try? structured.composed(slotKeys: slotKeys)) != nil {
      return .success(
        LeavingLayout(
          password: password, slots: slots, custom: custom, notes: fields.notes,
          outcome: .reshaped))
    }
    let rest = content.withBytes { bytes -> SecureBytes? in
      guard let lf = bytes.firstIndex(of: 0x0A) else { return nil }
      return SecureBytes(copying: bytes[(lf + 1)...])
    }
    if let rest {
      let notesOnly = LeavingLayout(
        password: password, slots: slotKeys.map { _ in nil }, custom: [], notes: rest,
        outcome: .exact)
      if notesOnly.composesBack(content, slotKeys: slotKeys) { return .success(notesOnly) }
    }
    guard (try? structured.composed(slotKeys: slotKeys)) != nil else {
      return .failure(LeftOut(.readerWouldRefuse))
    }
    return .success(
      LeavingLayout(
        password: password, slots: slots, custom: custom, notes: fields.notes,
        outcome: .reshaped))
  }

  /// Why an entry is left out.
  struct LeftOut: Error {
    let reason: LeftOutReason
    init(_ reason: LeftOutReason) { self.reason = reason }
  }

  /// The content the format's reader composes from this layout.
  ///
  /// - Throws: `TransferError` when it refuses it.
  func composed(slotKeys: [String]) throws -> SecureBytes {
    var fields: [(key: String, value: SecureBytes)] = []
    for (key, value) in zip(slotKeys, slots) {
      if let value, value.count > 0 { fields.append((key, value)) }
    }
    return try EntryContent.compose(
      password: password, fields: fields + custom, notes: notes.count > 0 ? notes : nil)
  }

  private func composesBack(_ content: SecureBytes, slotKeys: [String]) -> Bool {
    guard let back = try? composed(slotKeys: slotKeys) else { return false }
    return back == content
  }
}
