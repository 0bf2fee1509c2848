/// Roff for man(7) pages: the escaping every generated line needs, and the two inline marks the
/// hand-written prose uses (`` `literal` `` in bold, `*name*` in italics).
enum Roff {
  /// Escapes text for roff; a leading `.` is left for `line` to guard.
  ///
  /// `\` becomes `\e`, every `-` becomes `\-` (so options copy and paste as typed), and non-ASCII
  /// characters become `\[uXXXX]`.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\e"
      case "-": out += "\\-"
      default:
        if scalar.isASCII {
          out.unicodeScalars.append(scalar)
        } else {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
        }
      }
    }
    return out
  }

  /// An output line, with `\&` in front when it would otherwise start a request.
  static func line(_ text: String) -> String {
    text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text
  }

  /// `\fBtext\fR`.
  static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }

  /// `\fItext\fR`.
  static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

  /// Prose with its inline marks turned into font changes, one sentence per line.
  ///
  /// Lines are wrapped at spaces to 80 bytes, as mandoc's style check asks.
  static func prose(_ text: String) -> String {
    sentences(text).map { wrap(marked($0)) }.joined(separator: "\n")
  }

  /// Text from the command table: escaped only (no inline marks), one sentence per line.
  static func plain(_ text: String) -> String {
    sentences(text).map { wrap(escape($0)) }.joined(separator: "\n")
  }

  /// Breaks roff text at spaces into lines of at most 80 bytes, each guarded by `line`.
  ///
  /// A word longer than that stays whole.
  static func wrap(_ text: String) -> String {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if !current.isEmpty && current.utf8.count + 1 + word.utf8.count > 80 {
        lines.append(line(current))
        current = String(word)
      } else {
        current += (current.isEmpty ? "" : " ") + word
      }
    }
    lines.append(line(current))
    return lines.joined(separator: "\n")
  }

  /// Splits at `. ` before a capital letter or a literal: roff wants each sentence on a line.
  static func sentences(_ text: String) -> [String] {
    var out: [String] = []
    var current = ""
    let characters = Array(text)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      current.append(character)
      if character == ".", index + 2 < characters.count, characters[index + 1] == " ",
        characters[index + 2].isUppercase || characters[index + 2] == "`"
      {
        out.append(current)
        current = ""
        index += 2
        continue
      }
      index += 1
    }
    if !current.isEmpty { out.append(current) }
    return out
  }

  /// Escapes `text` and turns `` `literal` `` into bold and `*name*` into italics.
  static func marked(_ text: String) -> String {
    var out = ""
    var plain = ""
    var font: Character?
    for character in text {
      let opens = font == nil && (character == "`" || character == "*")
      if opens || character == font {
        out += escape(plain)
        plain = ""
        if opens {
          out += character == "`" ? "\\fB" : "\\fI"
          font = character
        } else {
          out += "\\fR"
          font = nil
        }
      } else {
        plain.append(character)
      }
    }
    return out + escape(plain) + (font == nil ? "" : "\\fR")
  }
}

/// A piece of a manual section: prose, a tagged item, an example, a subsection heading, references
/// to other pages, or roff generated from a command table.
enum ManualBlock: Equatable {
  /// A paragraph of prose (inline marks allowed).
  case paragraph(String)
  /// A paragraph of text from the command table (no inline marks).
  case tableText(String)
  /// A tagged paragraph: the tag (inline marks allowed) and its body paragraphs.
  case item(String, [String])
  /// Literal lines, shown indented in a fixed-width font.
  case example([String])
  /// A subsection heading.
  case subsection(String)
  /// References to other pages, such as `vault(5)`: each name and its section.
  case references([ManualReference])
  /// Roff built elsewhere (from a command table), used as it is.
  case roff(String)

  /// The block as roff lines.
  var roff: String {
    switch self {
    case .paragraph(let text):
      return ".PP\n" + Roff.prose(text) + "\n"
    case .tableText(let text):
      return ".PP\n" + Roff.plain(text) + "\n"
    case .item(let tag, let body):
      return ".TP\n" + Roff.line(Roff.marked(tag)) + "\n"
        + body.map(Roff.prose).joined(separator: "\n.IP\n") + "\n"
    case .example(let lines):
      return ".PP\n.RS 4\n.EX\n"
        + lines.map { Roff.line(Roff.escape($0)) }.joined(separator: "\n") + "\n.EE\n.RE\n"
    case .subsection(let title):
      return ".SS " + Roff.escape(title) + "\n"
    case .references(let pages):
      let lines = pages.map { ".BR \(Roff.escape($0.name)) (\(Roff.escape($0.section)))" }
      return ".PP\n" + lines.joined(separator: ",\n") + "\n"
    case .roff(let roff):
      return roff
    }
  }
}

/// A reference to another manual page: `biosim(1)` is the name `biosim` in section `1`.
struct ManualReference: Equatable {
  /// The page's name, such as `biosim`.
  let name: String
  /// Its section, such as `1`.
  let section: String
}

/// A titled section of a manual page.
struct ManualSection: Equatable {
  /// The heading, upper case: `ENVIRONMENT`.
  let title: String
  /// Its content, already in roff (generated sections build it from the command table).
  let roff: String

  /// A section made of blocks.
  init(_ title: String, _ blocks: [ManualBlock]) {
    self.title = title
    // A paragraph macro right after a subsection heading is redundant (mandoc warns).
    self.roff = blocks.map(\.roff).joined().replacingOccurrences(
      of: "(\\.SS [^\n]*\n)\\.PP\n", with: "$1", options: .regularExpression)
  }

  /// A section whose roff is built elsewhere.
  init(_ title: String, roff: String) {
    self.title = title
    self.roff = roff
  }
}

/// A whole man(7) page: the title line and its sections.
struct ManualPage {
  /// The fixed date every page carries, so the output never depends on the day it was made.
  static let date = "December 7, 2026"

  /// Page name, such as `vault`.
  let name: String
  /// Manual section: 1 for commands, 5 for file formats.
  let section: Int
  /// Source line, such as `vault 0.1.0`.
  let source: String
  /// The comment on the first line: where the page comes from and how to remake it.
  let notice: String
  /// The sections in order, NAME first.
  let sections: [ManualSection]

  /// The page's roff source.
  var roff: String {
    let manual = section == 5 ? "File Formats" : "User Commands"
    var out = ".\\\" \(notice)\n"
    // No hyphenation: groff's man macros re-enable it at each paragraph unless HY is 0 before
    // .TH. So words like VAULT_SESSION stay whole; a ragged right margin keeps spacing even.
    out += ".nr HY 0\n"
    out += ".TH \(name.uppercased()) \(section) \"\(Self.date)\" \"\(source)\" \"\(manual)\"\n"
    out += ".ad l\n"
    for section in sections {
      out += ".SH " + (section.title.contains(" ") ? "\"\(section.title)\"" : section.title) + "\n"
      // A paragraph macro right after a heading is redundant (mandoc warns).
      out += section.roff.hasPrefix(".PP\n") ? String(section.roff.dropFirst(4)) : section.roff
    }
    return out
  }
}
