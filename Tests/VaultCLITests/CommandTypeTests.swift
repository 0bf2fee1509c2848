import VaultCore
import XCTest

@testable import VaultCLI
@testable import VaultFormat

/// A command type (`VaultCommand`): the table entry its stored parameters declare, in order,
/// and the values a parsed line fills them with, in-process.
final class CommandTypeTests: XCTestCase {
  /// Options shared by commands, declared where the group is used.
  struct Clipping: ParameterGroup {
    @FlagParameter(Keys.clip) var clip
    @OptionParameter(Keys.clipTime) var clipTime
  }

  /// One parameter of every kind.
  struct Probe: VaultCommand {
    static let about = CommandAbout("probe", "A command of every kind of parameter.")

    @FlagParameter(Keys.force) var force
    @OptionParameter(Keys.field) var field
    @RepeatedOption(Keys.tag) var tags
    @GroupParameter var clipping: Clipping
    @ArgumentParameter(Keys.name) var name
    @VariadicArgument(Keys.findWords) var words

    /// What `run` saw, for the test to read.
    final class Seen: @unchecked Sendable {
      var values: [String] = []
    }
    nonisolated(unsafe) static var seen = Seen()

    func validate(path: [String]) throws {
      if clipping.clipTime != nil && !clipping.clip {
        throw UsageError(message: "--clip-time needs --clip", path: path)
      }
    }

    func run(_ context: Context) throws -> Int32 {
      Self.seen.values = [
        "\(force)", field?.text ?? "-", tags.map(\.key).joined(separator: ","),
        "\(clipping.clip)", clipping.clipTime.map(String.init) ?? "-", name.value,
        words.joined(separator: ","),
      ]
      return 7
    }
  }

  let program = ProgramSpec(
    root: CommandSpec("root", "Root.", subcommands: [Probe.spec]), globalOptions: [],
    version: "0")

  func run(_ words: [String]) throws -> Int32 {
    let invocation = try Parser.parse(words, program: program)
    let context = try Context(invocation: invocation, environment: VaultEnvironment(variables: [:]))
    guard let handler = program.command(at: invocation.path)?.run else {
      throw XCTSkip("no handler")
    }
    return try handler(context)
  }

  func testTheTableEntryListsTheParametersInDeclarationOrder() {
    let spec = Probe.spec
    XCTAssertEqual(spec.name, "probe")
    XCTAssertEqual(spec.options.map(\.long), ["force", "field", "tag", "clip", "clip-time"])
    XCTAssertEqual(spec.arguments.map(\.name), ["NAME", "WORD"])
    XCTAssertNotNil(spec.run)
  }

  func testAParsedLineFillsEveryParameter() throws {
    let status = try run([
      "probe", "-f", "--field", "url", "--tag", "@Work", "--tag", "home", "--clip",
      "--clip-time", "30", "mail/work", "ab", "cd",
    ])
    XCTAssertEqual(status, 7)
    XCTAssertEqual(
      Probe.seen.values, ["true", "url", "work,home", "true", "30", "mail/work", "ab,cd"])
  }

  func testWhatWasNotGivenIsFalseNilOrEmpty() throws {
    XCTAssertEqual(try run(["probe", "mail/work", "x"]), 7)
    XCTAssertEqual(Probe.seen.values, ["false", "-", "", "false", "-", "mail/work", "x"])
  }

  func testTheRulesBetweenOptionsRunBeforeTheCommand() {
    Probe.seen.values = []
    XCTAssertThrowsError(try run(["probe", "--clip-time", "30", "mail/work", "x"])) { error in
      XCTAssertEqual((error as? UsageError)?.message, "--clip-time needs --clip")
      XCTAssertEqual((error as? UsageError)?.path, ["probe"])
    }
    XCTAssertEqual(Probe.seen.values, [])
  }

  /// Every command of both programs is a type whose table entry declares each option and
  /// argument once.
  func testEveryCommandDeclaresEachParameterOnce() {
    func walk(_ spec: CommandSpec, _ path: String) {
      let longs = spec.options.map(\.long)
      XCTAssertEqual(Set(longs).count, longs.count, "\(path): \(longs)")
      let names = spec.arguments.map(\.name)
      XCTAssertEqual(Set(names).count, names.count, "\(path): \(names)")
      for sub in spec.subcommands { walk(sub, path + " " + sub.name) }
    }
    walk(VaultRootCommand.spec, "vault")
    walk(BiosimRootCommand.spec, "biosim")
    XCTAssertEqual(VaultRootCommand.subcommands.count, 46)
    XCTAssertEqual(BiosimRootCommand.subcommands.count, 14)
  }
}
