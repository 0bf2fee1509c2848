import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// Makes an entry's content in the fields convention (`vault(1)` FIELDS) from what a password
/// manager's export holds separately: a password, named fields and notes.
///
/// The content is the password as its first line, then one `KEY: VALUE` line per field in the
/// order given, then the notes; every line ends in LF. A value that would not read back as the
/// same bytes from a `KEY: VALUE` line (it holds a line break, starts with a blank or is not
/// UTF-8 text) is written as a block instead: the line `KEY: |` (`KEY: |-` when the value does
/// not end in LF) followed by each of its lines indented by two spaces, as in YAML, which
/// `EntryFields` reads back. Source keys are made into keys of the convention by
/// `fieldKey`; a key given twice (without regard to case) gets `-2`, `-3`… appended.
public enum EntryContent {
  /// A key of the fields convention for a source's field name: white space and `:` become `-`,
  /// control characters are dropped, the result is cut to 64 bytes (at a character boundary);
  /// an empty result is `field`, and `password` (which names the first line) is `password-field`.
  public static func fieldKey(_ source: String) -> String {
    var key = ""
    for scalar in source.unicodeScalars {
      if scalar == ":" || scalar.properties.isWhitespace {
        if !key.hasSuffix("-") { key.unicodeScalars.append("-") }
      } else if !(scalar.properties.generalCategory == .control
        || scalar.properties.generalCategory == .format)
      {
        key.unicodeScalars.append(scalar)
      }
    }
    while key.utf8.count > EntryFields.maximumKeyBytes { key.removeLast() }
    if key.isEmpty { return "field" }
    if EntryFields.isPasswordKey(key) { return "password-field" }
    return key
  }

  /// The content of an entry with `password` (its first line; empty when nil), `fields` in order
  /// and `notes` (kept byte for byte after the fields; a final LF is added when it lacks one).
  ///
  /// - Throws: `TransferError` when the password holds a line break (it could not be the first
  ///   line) or everything is empty (an entry has at least one byte).
  public static func compose(
    password: SecureBytes?, fields: [(key: String, value: SecureBytes)], notes: SecureBytes?
  ) throws -> SecureBytes {
    var out = ByteBuilder(packed: true)
    if let password {
      let broken = password.withBytes { $0.contains(0x0A) || $0.contains(0x0D) }
      guard !broken else { throw TransferError(.item(.passwordHoldsLineBreak)) }
      out.append(password)
    }
    out.append(0x0A)
    var keys = UniqueKeys()
    var endsInBlock = false
    for field in fields {
      let key = keys.claim(fieldKey(field.key))
      out.append(Array(key.utf8))
      out.append(0x3A)
      endsInBlock = !readsBack(field.value)
      if !endsInBlock {
        if field.value.count > 0 { out.append(0x20) }
        out.append(field.value)
        out.append(0x0A)
      } else {
        let keepsFinalLF = field.value.withBytes { $0.last == 0x0A }
        out.append(Array((keepsFinalLF ? " |\n" : " |-\n").utf8))
        appendBlock(field.value, to: &out)
      }
    }
    if let notes, notes.count > 0 {
      // Notes that start indented would be read as more lines of a block before them: a blank
      // line ends the block (and is no part of the notes, which leave out blank lines at their
      // ends).
      if endsInBlock, notes.withBytes({ $0.starts(with: [0x20, 0x20]) }) { out.append(0x0A) }
      out.append(notes)
      let last = notes.withBytes { $0.last }
      if last != 0x0A { out.append(0x0A) }
    }
    let content = out.finish()
    let empty = content.withBytes { $0.allSatisfy { $0 == 0x0A } } && fields.isEmpty
    guard !empty else { throw TransferError(.item(.empty)) }
    return content
  }

  /// `key`, or `key-2`, `key-3`… when `used` (lower-cased keys) has it.
  static func unique(_ key: String, among used: Set<String>) -> String {
    var keys = UniqueKeys(used: used)
    return keys.claim(key)
  }

  /// Keys handed out so far, without regard to case, each once: `claim` gives a key, or the key
  /// with the first free `-2`, `-3`… suffix, in constant time on average (the next number tried
  /// for each key is kept, so 20,000 URIs named `url` do not try every number again).
  struct UniqueKeys {
    private var used: Set<String>
    private var next: [String: Int] = [:]

    init(used: Set<String> = []) { self.used = used }

    /// `KEY-N`, the key cut (at a character boundary) so that it stays a key of at most
    /// `EntryFields.maximumKeyBytes` bytes.
    static func numbered(_ key: String, _ number: Int) -> String {
      let suffix = "-\(number)"
      var base = key
      while base.utf8.count + suffix.utf8.count > EntryFields.maximumKeyBytes && !base.isEmpty {
        base.removeLast()
      }
      return base + suffix
    }

    mutating func claim(_ key: String) -> String {
      guard used.contains(key.lowercased()) else {
        used.insert(key.lowercased())
        return key
      }
      var number = next[key.lowercased()] ?? 2
      while used.contains(Self.numbered(key, number).lowercased()) { number += 1 }
      next[key.lowercased()] = number + 1
      let numbered = Self.numbered(key, number)
      used.insert(numbered.lowercased())
      return numbered
    }
  }

  /// True when `value` read from `KEY: VALUE` gives back the same bytes: UTF-8 text with no
  /// line break or NUL, not starting with a space or tab, and not `|` or `|-` (which open a
  /// block when indented lines follow).
  static func readsBack(_ value: SecureBytes) -> Bool {
    value.withBytes { bytes in
      guard let first = bytes.first else { return true }
      guard !bytes.elementsEqual([0x7C]), !bytes.elementsEqual([0x7C, 0x2D]) else { return false }
      guard first != 0x20, first != 0x09 else { return false }
      guard !bytes.contains(0x0A), !bytes.contains(0x0D), !bytes.contains(0) else { return false }
      return String(validating: bytes, as: UTF8.self) != nil
    }
  }

  /// Each line of `value` (without the final LF, which the block's `|` says), indented by two
  /// spaces and ended by LF.
  static func appendBlock(_ value: SecureBytes, to out: inout ByteBuilder) {
    value.withBytes { bytes in
      let body = bytes.last == 0x0A ? bytes.count - 1 : bytes.count
      var start = 0
      while start <= body {
        var stop = start
        while stop < body && bytes[stop] != 0x0A { stop += 1 }
        out.append(Array("  ".utf8))
        out.append(bytes[start..<stop])
        out.append(0x0A)
        start = stop + 1
      }
    }
  }
}

extension EntryContent {
  /// `compose`, except that an entry with nothing at all (no password, fields or notes) is one
  /// empty line, an empty password, rather than refused: an export's item with only a name
  /// keeps its name.
  ///
  /// - Throws: `TransferError` when the password holds a line break.
  public static func composeKeepingEmpty(
    password: SecureBytes?, fields: [(key: String, value: SecureBytes)], notes: SecureBytes?
  ) throws -> SecureBytes {
    if (password?.count ?? 0) == 0 && fields.isEmpty && (notes?.count ?? 0) == 0 {
      return SecureBytes(copying: [0x0A], packed: true)
    }
    return try compose(password: password, fields: fields, notes: notes)
  }
}
