import XCTest

@testable import VaultFormat
@testable import VaultManualGenerator
@testable import VaultSecrets

/// The markup of `man/src/*.in`: what each construct renders to, and the failures that name the
/// source, the line and the placeholder.
final class ManualSourceTests: XCTestCase {
  let path = "man/src/test.1.in"

  func render(_ text: String, _ values: [String: Placeholder] = [:]) throws -> String {
    try ManualSource(path: path, text: text).resolve(values).map { ".SH \($0.title)\n" + $0.roff }
      .joined()
  }

  func failure(_ text: String, _ values: [String: Placeholder] = [:]) -> ManualSourceError? {
    do {
      _ = try render(text, values)
      return nil
    } catch {
      return error as? ManualSourceError
    }
  }

  func testEachConstructRendersAsTheRoffRendererMakesIt() throws {
    let source = """
      .\\" A comment, ignored.
      .section FILES
      A paragraph with a `literal` and a *name*, over
      two lines. Another sentence.

      .item `~/vault.db`
        The vault, mode 0600.

        A second paragraph of the body.
      .item PLAIN
        One line.
      .example
      $ vault get -- -name
        indented {{value}}
      .end
      .subsection More
      .see vault(1) sqlite3(1)
      """
    XCTAssertEqual(
      try render(source, ["value": .text("kept")]),
      """
      .SH FILES
      .PP
      A paragraph with a \\fBliteral\\fR and a \\fIname\\fR, over two lines.
      Another sentence.
      .TP
      \\fB~/vault.db\\fR
      The vault, mode 0600.
      .IP
      A second paragraph of the body.
      .TP
      PLAIN
      One line.
      .PP
      .RS 4
      .EX
      $ vault get \\-\\- \\-name
        indented kept
      .EE
      .RE
      .SS More
      .BR vault (1),
      .BR sqlite3 (1)

      """)
  }

  func testTextPlaceholdersFillProseTagsAndExampleLines() throws {
    let source = """
      .section LIMITS
      At most {{max}} bytes, `{{max}}` in bold.
      .item {{tag}}
        Body.
      .example
      {{lines}}
      .end
      """
    let values: [String: Placeholder] = [
      "max": .text("1024"), "tag": .text("id 1"), "lines": .text("one\n  two"),
    ]
    XCTAssertEqual(
      try render(source, values),
      """
      .SH LIMITS
      .PP
      At most 1024 bytes, \\fB1024\\fR in bold.
      .TP
      id 1
      Body.
      .PP
      .RS 4
      .EX
      one
        two
      .EE
      .RE

      """)
  }

  func testABlockPlaceholderOnItsOwnLineBecomesItsBlocks() throws {
    let source = """
      .section COMMANDS
      {{commands}}

      {{note}}
      """
    let values: [String: Placeholder] = [
      "commands": .blocks([.roff(".PP\n\\fBvault get\\fR\n"), .tableText("From the table.")]),
      "note": .text("A text value alone is a paragraph."),
    ]
    XCTAssertEqual(
      try render(source, values),
      """
      .SH COMMANDS
      .PP
      \\fBvault get\\fR
      .PP
      From the table.
      .PP
      A text value alone is a paragraph.

      """)
  }

  func testAnUnknownPlaceholderFailsNamingItAndItsLine() {
    let source = ".section A\nFirst line.\nSecond {{chunk-bytes}} line.\n\nThird {{size}}.\n"
    let error = failure(source, ["size": .text("1")])
    XCTAssertEqual(error, .unknownPlaceholder(path: path, line: 2, name: "chunk-bytes"))
    XCTAssertEqual(error?.description, "man/src/test.1.in:2: unknown placeholder {{chunk-bytes}}")
    XCTAssertEqual(
      failure(".section A\n{{commands}}\n"),
      .unknownPlaceholder(path: path, line: 2, name: "commands"))
    XCTAssertEqual(
      failure(".section A\n.example\n{{schema}}\n.end\n"),
      .unknownPlaceholder(path: path, line: 3, name: "schema"))
  }

  func testAValueTheSourceNeverUsesFailsNamingIt() {
    let values: [String: Placeholder] = [
      "used": .text("1"), "chunk-size": .text("65536"), "options": .blocks([]),
    ]
    let error = failure(".section A\nUses {{used}}.\n", values)
    XCTAssertEqual(error, .unusedPlaceholders(path: path, names: ["chunk-size", "options"]))
    XCTAssertEqual(
      error?.description,
      "man/src/test.1.in: the generator provides {{chunk-size}}, {{options}}, but the source"
        + " never uses them")
    XCTAssertEqual(
      failure(".section A\nNothing.\n", ["version": .text("0.1.0")])?.description,
      "man/src/test.1.in: the generator provides {{version}}, but the source never uses it")
  }

  func testABlockPlaceholderInsideTextFails() {
    let error = failure(".section A\nSee {{commands}} here.\n", ["commands": .blocks([])])
    XCTAssertEqual(error, .blockPlaceholderInText(path: path, line: 2, name: "commands"))
    XCTAssertEqual(
      error?.description,
      "man/src/test.1.in:2: {{commands}} stands for whole blocks: put it on a line of its own")
  }

  func testMarkupErrorsNameTheirLine() {
    let cases: [(String, Int, String)] = [
      ("Text first.\n", 1, "text before the first .section"),
      (".item X\n  Body.\n", 1, ".item before the first .section"),
      (".section A\n.bold x\n", 2, "unknown directive .bold"),
      (".section A\n.example\nline\n", 2, ".example is never closed by .end"),
      (".section A\n.end\n", 2, ".end without an .example"),
      (
        ".section A\n.item TAG\nNot indented.\n", 2,
        "the body of .item TAG is missing (indent it by two)"
      ),
      (
        ".section A\n  indented\n", 2,
        "indented text outside an .item (an item's body is indented by two)"
      ),
      (".section A\n.see vault\n", 2, "'vault' is not a page reference such as vault(5)"),
      (
        ".section A\nA {{Bad}} name.\n", 2,
        "'{{' starts no placeholder: a name is lower-case letters, digits and '-'"
      ),
      (".section\n", 1, ".section needs a title"),
    ]
    for (source, line, message) in cases {
      XCTAssertEqual(failure(source), .syntax(path: path, line: line, message: message), source)
    }
  }
}
