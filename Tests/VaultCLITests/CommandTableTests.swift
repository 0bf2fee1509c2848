import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// The command tables themselves: well-formed, and every form of help prints the same bytes.
final class CommandTableTests: XCTestCase {
  /// Every problem found in `program`'s table, one line each.
  static func problems(_ program: ProgramSpec) -> [String] {
    var found: [String] = []
    let globals = program.globalOptions
    found += optionProblems(globals, where: "\(program.name) (global options)")
    func walk(_ command: CommandSpec, _ path: [String]) {
      let label = ([program.name] + path).joined(separator: " ")
      if command.abstract.isEmpty { found.append("\(label): no abstract") }
      if command.run == nil && command.subcommands.isEmpty {
        found.append("\(label): no handler")
      }
      var words: [String: String] = [:]
      for sub in command.subcommands {
        for word in [sub.name] + sub.aliases {
          if let other = words[word] {
            found.append("\(label): '\(word)' names both '\(other)' and '\(sub.name)'")
          }
          words[word] = sub.name
        }
      }
      let options = command.options + globals
      found += optionProblems(options, where: label)
      for argument in command.arguments where argument.abstract.isEmpty {
        found.append("\(label): argument \(argument.name) has no abstract")
      }
      let variadic = command.arguments.indices.filter { command.arguments[$0].variadic }
      if variadic.count > 1 { found.append("\(label): more than one variadic argument") }
      if let index = variadic.first, index != command.arguments.count - 1 {
        found.append("\(label): variadic argument \(command.arguments[index].name) is not last")
      }
      for kind in options.map(\.completion) + command.arguments.map(\.completion) {
        guard case .values(let values) = kind else { continue }
        for value in values where value.isEmpty || !value.allSatisfy(isPlain) {
          found.append("\(label): completion value '\(value)' needs quoting in a shell")
        }
      }
      for sub in command.subcommands { walk(sub, path + [sub.name]) }
    }
    walk(program.root, [])
    return found
  }

  private static func isPlain(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || "-_.+".contains(character))
  }

  private static func optionProblems(_ options: [OptionSpec], where label: String) -> [String] {
    var found: [String] = []
    var longs = Set<String>()
    var shorts = Set<Character>()
    for option in options {
      if option.abstract.isEmpty { found.append("\(label): --\(option.long) has no abstract") }
      if !longs.insert(option.long).inserted {
        found.append("\(label): --\(option.long) is declared twice")
      }
      if let short = option.short, !shorts.insert(short).inserted {
        found.append("\(label): -\(short) is declared twice")
      }
    }
    return found
  }

  func testTheTablesAreWellFormed() {
    XCTAssertEqual(Self.problems(VaultCommands.program), [])
    XCTAssertEqual(Self.problems(BiosimCommands.program), [])
  }

  func testTheValidationFindsEachKindOfProblem() {
    let broken = ProgramSpec(
      root: CommandSpec(
        "tool", "",
        subcommands: [
          CommandSpec("a", aliases: ["b"], "A.", run: { _ in 0 }),
          CommandSpec(
            "b", "B.", options: [.flag("help", "Twice."), .flag("x", short: "h", "")],
            arguments: [
              ArgumentSpec("MANY", "Many.", variadic: true),
              ArgumentSpec("MORE", "More.", variadic: true, completion: .values(["a b"])),
              ArgumentSpec("LAST", ""),
            ]),
          CommandSpec("c", "No handler."),
        ]),
      globalOptions: [.flag("help", short: "h", "Help.")], version: "0")
    XCTAssertEqual(
      Self.problems(broken),
      [
        "tool: no abstract",
        "tool: 'b' names both 'a' and 'b'",
        "tool b: no handler",
        "tool b: --x has no abstract",
        "tool b: --help is declared twice",
        "tool b: -h is declared twice",
        "tool b: argument LAST has no abstract",
        "tool b: more than one variadic argument",
        "tool b: variadic argument MANY is not last",
        "tool b: completion value 'a b' needs quoting in a shell",
        "tool c: no handler",
      ])
  }

  func testHiddenCommandsStayOutOfHelpAndCompletions() {
    let program = VaultCommands.program
    for hidden in ["__complete"] {
      XCTAssertEqual(program.command(at: [hidden])?.hidden, true, hidden)
      XCTAssertFalse(Help.text(program, path: []).contains(hidden))
      XCTAssertFalse(program.completionNodes.contains { $0.path == [hidden] })
    }
  }

  /// `vault --help`, `vault -h` and `vault help` print the same bytes, and so do
  /// `vault help CMD`, `vault CMD --help` and `vault CMD -h`, for every command of both programs.
  func testEveryFormOfHelpPrintsTheSameBytes() {
    let box = Sandbox()
    for program in [VaultCommands.program, BiosimCommands.program] {
      let binary = Sandbox.binDirectory + "/" + program.name
      for path in program.allPaths() {
        let expected = Help.text(program, path: path)
        var forms = [["help"] + path, path + ["--help"], path + ["-h"]]
        // An alias in any position gives the same bytes as the name.
        if let command = program.command(at: path), let alias = command.aliases.first {
          let aliased = path.dropLast() + [alias]
          forms += [["help"] + aliased, aliased + ["--help"]]
        }
        for arguments in forms {
          let result = Subprocess.run(
            binary, arguments, environment: box.environment, directory: box.home)
          let line = ([program.name] + arguments).joined(separator: " ")
          XCTAssertEqual(result.status, 0, "\(line): \(result.stderrText)")
          XCTAssertEqual(result.stderrText, "", line)
          XCTAssertTrue(
            result.stdout == Array(expected.utf8),
            "\(line) printed:\n\(result.stdoutText)\nnot the help text:\n\(expected)")
        }
      }
    }
  }
}
