import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// A template for `vault inject`: text with `{{ vault NAME[:FIELD] }}` placeholders (spaces and
/// tabs inside the braces optional), each on one line; other `{{ … }}` text is left as it is.
struct InjectTemplate {
  /// One placeholder: where it is and what it names.
  struct Placeholder {
    let range: Range<Int>
    let line: Int
    let reference: SecretReference
  }

  let text: SecureBytes
  let placeholders: [Placeholder]

  /// Finds every placeholder and checks its reference.
  ///
  /// - Throws: `LocatedError` (`line N`) for a placeholder without its closing `}}` on the same
  ///   line, or with a bad name or field key.
  init(_ text: SecureBytes) throws {
    self.text = text
    var found: [Placeholder] = []
    try text.withBytes { bytes in
      var line = 1
      var index = 0
      while index < bytes.count {
        if bytes[index] == 0x0A { line += 1 }
        guard bytes[index] == UInt8(ascii: "{"), index + 1 < bytes.count,
          bytes[index + 1] == UInt8(ascii: "{")
        else {
          index += 1
          continue
        }
        var cursor = index + 2
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        while cursor < bytes.count && blank(bytes[cursor]) { cursor += 1 }
        let keyword = Array("vault".utf8)
        guard cursor + keyword.count < bytes.count,
          Array(bytes[cursor..<cursor + keyword.count]) == keyword,
          blank(bytes[cursor + keyword.count])
        else {
          index += 1
          continue
        }
        cursor += keyword.count
        var close = cursor
        while close + 1 < bytes.count && bytes[close] != 0x0A
          && !(bytes[close] == UInt8(ascii: "}") && bytes[close + 1] == UInt8(ascii: "}"))
        {
          close += 1
        }
        guard close + 1 < bytes.count, bytes[close] == UInt8(ascii: "}") else {
          throw LocatedError(
            location: "line \(line)",
            InputRefused(
              "a '{{ vault' placeholder is not closed by '}}' on its line"))
        }
        let inside = String(decoding: bytes[cursor..<close], as: UTF8.self)
          .trimmingBlanks
        do {
          found.append(
            Placeholder(
              range: index..<close + 2, line: line, reference: try SecretReference(inside)))
        } catch let thrown {
          guard ExitStatus.report(of: thrown) != nil else { throw thrown }
          throw LocatedError(location: "line \(line)", thrown)
        }
        index = close + 2
      }
    }
    placeholders = found
  }

  /// The text with each placeholder replaced by `value(reference)`, in guarded memory.
  ///
  /// - Throws: what `value` throws, as a `LocatedError` naming the line.
  func filled(_ value: (SecretReference) throws -> SecureBytes) throws -> SecureBytes {
    defer { SecureBytes.wipeStack() }
    var out = ByteBuilder()
    var offset = 0
    for placeholder in placeholders {
      text.withBytes { out.append($0[offset..<placeholder.range.lowerBound]) }
      do {
        out.append(try value(placeholder.reference))
      } catch let thrown {
        guard ExitStatus.report(of: thrown) != nil else { throw thrown }
        throw LocatedError(location: "line \(placeholder.line)", thrown)
      }
      offset = placeholder.range.upperBound
    }
    text.withBytes { out.append($0[offset...]) }
    return out.finish()
  }
}

/// A core error and where in the input it was found (`line 3`): reported as the error with the
/// place before its message.
struct LocatedError: Error {
  let location: String
  /// The exit code, message and hint of the error itself.
  let report: ExitStatus.Report

  /// `underlying` (a `VaultError` or a `ReportableError`) at `location`; `hint`, when given, is
  /// said in place of the error's own.
  init(location: String, _ underlying: any Error, hint: String? = nil) {
    self.location = location
    let report = ExitStatus.report(of: underlying) ?? (.failure, "\(underlying)", nil)
    self.report = (report.code, report.message, hint ?? report.hint)
  }
}
