import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// What `vault get` prints (or copies) of an entry: all of it, one field, one line, the keys, or
/// the JSON of its password, fields and notes (`vault(1)` FIELDS).
enum EntrySelection: Equatable {
  case whole
  case field(String)
  case line(Int)
  case keys
  case json

  /// How a copy of the selection of the entry `name` is named: `the password of 'name'`.
  func clipped(_ name: String) -> String {
    let entry = "'\(Output.printable(name))'"
    switch self {
    case .field(let key) where EntryFields.isPasswordKey(key): return "the password of \(entry)"
    case .field(let key): return "field '\(Output.printable(key))' of \(entry)"
    case .line(let number): return "line \(number) of \(entry)"
    case .whole, .keys, .json: return "all of \(entry)"
    }
  }

  /// The selected bytes of `content`, the entry named `name`.
  ///
  /// - Throws: `VaultError.noField` or `.noLine` (exit 3) when the entry has no such field or
  ///   line; `.notText` (exit 5) when the content is not UTF-8 text and a part of it is
  ///   asked for.
  func select(from content: SecureBytes, name: String) throws -> SecureBytes {
    if self == .whole { return content }
    defer { SecureBytes.wipeStack() }
    let fields = try EntryFields(content)
    switch self {
    case .whole: return content
    case .field(let key):
      guard let value = fields.value(key) else {
        throw VaultError.noField(name: name, key: key, keys: fields.keys)
      }
      return value
    case .line(let number):
      guard let line = fields.line(number) else {
        throw VaultError.noLine(name: name, line: number, count: fields.lineCount)
      }
      return line
    case .keys:
      return SecureBytes(copying: Array(fields.keys.map { $0 + "\n" }.joined().utf8))
    case .json:
      let json = fields.json
      let line = SecureBytes(count: json.count + 1)
      line.withMutableBytes { target in json.withBytes { target.copyMemory(from: $0) } }
      line[json.count] = 0x0A
      return line
    }
  }
}

extension Output {
  /// Writes a value: exactly its bytes to a pipe or file; on a terminal, with a newline after it
  /// when it does not end in one, so the shell's prompt is not glued to the secret.
  static func writeValue(_ value: SecureBytes) {
    defer { SecureBytes.wipeStack() }
    guard isatty(1) == 1, value.count == 0 || value[value.count - 1] != 0x0A else {
      value.withBytes { write($0) }
      return
    }
    // Produced whole, then one write: the value and the newline a terminal gets.
    let whole = SecureBytes(count: value.count + 1)
    whole.withMutableBytes { out in
      value.withBytes { out.copyMemory(from: $0) }
      out[value.count] = 0x0A
    }
    whole.withBytes { write($0) }
  }
}
