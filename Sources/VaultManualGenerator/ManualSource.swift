import VaultFormat

/// The text source of a manual page (`man/src/NAME.SECTION.in`), read into sections of blocks
/// whose text may still hold `{{placeholders}}`.
///
/// The markup, line by line:
///
/// - `.\" …` is a comment.
/// - `.section TITLE` starts a section, `.subsection TITLE` a subsection heading in it.
/// - Lines of text make a paragraph, joined with spaces; a blank line or a directive ends it.
///   In text, `` `literal` `` is set in bold and `*name*` in italics.
/// - `.item TAG` is a tagged paragraph; its body is the lines after it indented by two spaces,
///   blank lines separating the body's paragraphs.
/// - `.example`, then literal lines, then `.end`: shown indented in a fixed-width font.
/// - `.see NAME(SECTION) …` refers to other pages.
/// - `{{name}}` is replaced by the value the generator provides under that name; a value made of
///   whole blocks (such as `{{commands}}`) must stand on a line of its own.
struct ManualSource: Equatable {
  /// A titled section and its blocks.
  struct Section: Equatable {
    /// The heading, upper case: `JSON OUTPUT`.
    let title: String
    /// The blocks in order.
    let blocks: [Block]
  }

  /// A piece of a section, its placeholders not yet replaced.
  enum Block: Equatable {
    /// A paragraph of prose.
    case paragraph(Text)
    /// A tagged paragraph: its tag and its body's paragraphs.
    case item(tag: Text, body: [Text])
    /// Literal lines.
    case example([Text])
    /// A subsection heading.
    case subsection(String)
    /// References to other pages.
    case references([ManualReference])
    /// A line holding nothing but `{{name}}`.
    case placeholder(Text)
  }

  /// Source text and the line it starts on, for messages.
  struct Text: Equatable {
    /// The text, lines of a paragraph joined with spaces.
    let string: String
    /// Its first line, from 1.
    let line: Int
  }

  /// The source's path relative to the package root, such as `man/src/vault.5.in`.
  let path: String
  /// The sections in order.
  let sections: [Section]

  /// Reads `text`, the contents of the source at `path`.
  ///
  /// - Throws: `ManualSourceError.syntax` at the first line the markup does not allow.
  init(path: String, text: String) throws {
    self.path = path
    var reader = Reader(path: path)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for (index, line) in lines.enumerated() {
      let next = index + 1 < lines.count ? lines[index + 1] : ""
      try reader.read(line, number: index + 1, next: next)
    }
    sections = try reader.finish()
  }

  /// The sections with every placeholder replaced by its value in `values`.
  ///
  /// - Throws: `ManualSourceError.unknownPlaceholder` for a name `values` lacks,
  ///   `.blockPlaceholderInText` for blocks used inside text, and `.unusedPlaceholders` naming
  ///   every value the source never uses.
  func resolve(_ values: [String: Placeholder]) throws -> [ManualSection] {
    var resolver = Resolver(path: path, values: values)
    let resolved = try sections.map { section in
      ManualSection(section.title, try section.blocks.flatMap { try resolver.blocks($0) })
    }
    let unused = Set(values.keys).subtracting(resolver.used).sorted()
    guard unused.isEmpty else {
      throw ManualSourceError.unusedPlaceholders(path: path, names: unused)
    }
    return resolved
  }
}

/// The line-by-line state of reading a source.
private struct Reader {
  let path: String
  var sections: [ManualSource.Section] = []
  var title: String?
  var blocks: [ManualSource.Block] = []
  /// The lines of the paragraph being read, and where it started.
  var paragraph: [String] = []
  var paragraphLine = 0
  /// The item being read: its tag and the paragraphs of its body so far.
  var item: (tag: ManualSource.Text, body: [ManualSource.Text])?
  /// The lines of the example being read, each with its number.
  var example: [ManualSource.Text]?
  var exampleLine = 0

  init(path: String) { self.path = path }

  mutating func read(_ text: String, number: Int, next: String) throws {
    // Outside examples, a line of spaces is blank.
    let line = example == nil && text.allSatisfy { $0 == " " } ? "" : text
    if example != nil {
      if line == ".end" {
        blocks.append(.example(example ?? []))
        example = nil
      } else {
        example?.append(ManualSource.Text(string: line, line: number))
      }
      return
    }
    if line.hasPrefix(".\\\"") { return }
    if item != nil {
      if line.hasPrefix("  ") {
        add(String(line.dropFirst(2)).trimmingLeadingSpaces, number: number)
        return
      }
      if line.isEmpty {
        endParagraph()
        return
      }
      try endItem()
    }
    if line.isEmpty {
      endParagraph()
    } else if line.hasPrefix(".") {
      endParagraph()
      try directive(line, number: number)
    } else if line.hasPrefix(" ") {
      throw error(number, "indented text outside an .item (an item's body is indented by two)")
    } else {
      guard title != nil else { throw error(number, "text before the first .section") }
      if paragraph.isEmpty, Self.isPlaceholderLine(line), Self.endsParagraph(next) {
        blocks.append(.placeholder(ManualSource.Text(string: line, line: number)))
      } else {
        add(line, number: number)
      }
    }
  }

  mutating func finish() throws -> [ManualSource.Section] {
    if example != nil { throw error(exampleLine, ".example is never closed by .end") }
    if item != nil { try endItem() }
    endParagraph()
    endSection()
    return sections
  }

  private mutating func directive(_ line: String, number: Int) throws {
    let word = line.prefix { $0 != " " }
    let rest = String(line.dropFirst(word.count)).trimmingLeadingSpaces
    if word != ".section" && title == nil {
      throw error(number, "\(word) before the first .section")
    }
    switch word {
    case ".section":
      guard !rest.isEmpty else { throw error(number, ".section needs a title") }
      endSection()
      title = rest
    case ".subsection":
      guard !rest.isEmpty else { throw error(number, ".subsection needs a title") }
      blocks.append(.subsection(rest))
    case ".item":
      guard !rest.isEmpty else { throw error(number, ".item needs a tag") }
      item = (ManualSource.Text(string: rest, line: number), [])
    case ".example":
      example = []
      exampleLine = number
    case ".see":
      let pages = try rest.split(separator: " ").map { try reference(String($0), number) }
      guard !pages.isEmpty else { throw error(number, ".see needs at least one page") }
      blocks.append(.references(pages))
    case ".end":
      throw error(number, ".end without an .example")
    default:
      throw error(number, "unknown directive \(word)")
    }
  }

  /// `vault(5)` as a reference.
  private func reference(_ word: String, _ number: Int) throws -> ManualReference {
    guard word.hasSuffix(")"), let open = word.firstIndex(of: "("), open != word.startIndex else {
      throw error(number, "'\(word)' is not a page reference such as vault(5)")
    }
    let section = word[word.index(after: open)..<word.index(before: word.endIndex)]
    guard !section.isEmpty else {
      throw error(number, "'\(word)' is not a page reference such as vault(5)")
    }
    return ManualReference(name: String(word[..<open]), section: String(section))
  }

  private mutating func add(_ text: String, number: Int) {
    if paragraph.isEmpty { paragraphLine = number }
    paragraph.append(text)
  }

  private mutating func endParagraph() {
    guard !paragraph.isEmpty else { return }
    let text = ManualSource.Text(string: paragraph.joined(separator: " "), line: paragraphLine)
    if item != nil { item?.body.append(text) } else { blocks.append(.paragraph(text)) }
    paragraph = []
  }

  private mutating func endItem() throws {
    endParagraph()
    guard let item else { return }
    guard !item.body.isEmpty else {
      let message = "the body of .item \(item.tag.string) is missing (indent it by two)"
      throw error(item.tag.line, message)
    }
    blocks.append(.item(tag: item.tag, body: item.body))
    self.item = nil
  }

  private mutating func endSection() {
    guard let title else { return }
    sections.append(ManualSource.Section(title: title, blocks: blocks))
    blocks = []
  }

  private func error(_ line: Int, _ message: String) -> ManualSourceError {
    .syntax(path: path, line: line, message: message)
  }

  /// `{{name}}` and nothing else.
  static func isPlaceholderLine(_ line: String) -> Bool {
    let name = line.dropFirst(2).dropLast(2)
    return line.hasPrefix("{{") && line.hasSuffix("}}") && !name.isEmpty
      && name.allSatisfy(Resolver.isNameCharacter)
  }

  /// The line after a paragraph's last: blank, a directive or a comment.
  static func endsParagraph(_ line: String) -> Bool {
    line.isEmpty || line.hasPrefix(".")
  }
}

/// Replaces placeholders with their values and records which ones were used.
private struct Resolver {
  let path: String
  let values: [String: Placeholder]
  var used: Set<String> = []

  init(path: String, values: [String: Placeholder]) {
    self.path = path
    self.values = values
  }

  mutating func blocks(_ block: ManualSource.Block) throws -> [ManualBlock] {
    switch block {
    case .paragraph(let text):
      return [.paragraph(try self.text(text))]
    case .item(let tag, let body):
      return [.item(try text(tag), try body.map { try text($0) })]
    case .example(let lines):
      return [.example(try lines.flatMap { try text($0).components(separatedBy: "\n") })]
    case .subsection(let title):
      return [.subsection(title)]
    case .references(let pages):
      return [.references(pages)]
    case .placeholder(let line):
      let name = String(line.string.dropFirst(2).dropLast(2))
      guard let value = values[name] else {
        throw ManualSourceError.unknownPlaceholder(path: path, line: line.line, name: name)
      }
      used.insert(name)
      switch value {
      case .blocks(let blocks): return blocks
      case .text(let string): return [.paragraph(string)]
      }
    }
  }

  /// The text with each `{{name}}` replaced by its text value.
  mutating func text(_ text: ManualSource.Text) throws -> String {
    var out = ""
    var rest = Substring(text.string)
    while let open = rest.range(of: "{{") {
      out += rest[..<open.lowerBound]
      let after = rest[open.upperBound...]
      guard let close = after.range(of: "}}"), !after[..<close.lowerBound].isEmpty,
        after[..<close.lowerBound].allSatisfy(Self.isNameCharacter)
      else {
        throw ManualSourceError.syntax(
          path: path, line: text.line,
          message: "'{{' starts no placeholder: a name is lower-case letters, digits and '-'")
      }
      let name = String(after[..<close.lowerBound])
      switch values[name] {
      case nil:
        throw ManualSourceError.unknownPlaceholder(path: path, line: text.line, name: name)
      case .blocks:
        throw ManualSourceError.blockPlaceholderInText(path: path, line: text.line, name: name)
      case .text(let value):
        out += value
        used.insert(name)
      }
      rest = after[close.upperBound...]
    }
    return out + rest
  }

  /// A character of a placeholder's name: `a`-`z`, `0`-`9` or `-`.
  static func isNameCharacter(_ character: Character) -> Bool {
    character == "-" || ("a"..."z").contains(character) || ("0"..."9").contains(character)
  }
}

extension String {
  /// The string without its leading spaces.
  fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
