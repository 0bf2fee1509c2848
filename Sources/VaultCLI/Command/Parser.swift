import VaultFormat

/// Parses argv against a `ProgramSpec`.
///
/// `--opt value`, `--opt=value`, `-o value`, `-ovalue`, clustered short flags (`-fm`), `--` to end
/// options, options before or after arguments, and repeated options (the last value wins).
public enum Parser {
  /// Parses `arguments` (without the program name).
  ///
  /// - Throws: `UsageError` for an unknown command or option, a missing or unexpected value, or
  ///   missing or extra positional arguments.
  public static func parse(_ arguments: [String], program: ProgramSpec) throws -> Invocation {
    var command = program.root
    var invocation = Invocation(path: [])
    var index = 0
    var optionsEnded = false

    func options() -> [OptionSpec] { command.options + program.globalOptions }

    func fail(_ message: String, hint: String? = nil) -> UsageError {
      UsageError(message: message, hint: hint, path: invocation.path)
    }
    func failWith(_ message: String, _ hint: String?) -> UsageError { fail(message, hint: hint) }

    func record(_ option: OptionSpec, value: String?) {
      if let value {
        invocation.values[option.long, default: []].append(value)
      } else {
        invocation.flags.insert(option.long)
      }
    }

    while index < arguments.count {
      let word = arguments[index]
      index += 1
      if !optionsEnded && word == "--" {
        optionsEnded = true
        continue
      }
      if !optionsEnded && word.hasPrefix("--") {
        let body = word.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
        guard let option = options().first(where: { $0.long == name }) else {
          let candidates = options().filter { !$0.hidden }.map { "--" + $0.long }
          throw fail(
            "unknown option '--\(name)'",
            hint: Suggestion.closest(to: "--" + name, among: candidates).map {
              "did you mean '\($0)'?"
            })
        }
        if option.valueName == nil {
          guard inline == nil else { throw fail("option '--\(name)' takes no value") }
          record(option, value: nil)
        } else if let inline {
          record(option, value: inline)
        } else {
          guard index < arguments.count, !isOption(arguments[index], options()) else {
            throw fail(
              "option '--\(name)' needs a value \(option.valueName ?? "")",
              hint: index < arguments.count
                ? "a value that starts with '-' is given as --\(name)=\(arguments[index])" : nil)
          }
          record(option, value: arguments[index])
          index += 1
        }
        continue
      }
      if !optionsEnded && word.hasPrefix("-") && word.count > 1 {
        var letters = Array(word.dropFirst())
        while !letters.isEmpty {
          let letter = letters.removeFirst()
          guard let option = options().first(where: { $0.short == letter }) else {
            throw fail(
              "unknown option '-\(letter)'",
              hint: command.arguments.isEmpty
                ? nil
                : "an argument that starts with '-' goes after '--' (vault never repeats it:"
                  + " it may be a secret)")
          }
          if option.valueName == nil {
            record(option, value: nil)
            continue
          }
          if !letters.isEmpty {
            record(option, value: String(letters))
          } else {
            guard index < arguments.count, !isOption(arguments[index], options()) else {
              throw fail("option '-\(letter)' needs a value \(option.valueName ?? "")")
            }
            record(option, value: arguments[index])
            index += 1
          }
          letters = []
        }
        continue
      }
      if invocation.arguments.isEmpty && !command.subcommands.isEmpty && !optionsEnded {
        if let sub = command.subcommand(word) {
          command = sub
          invocation.path.append(sub.name)
          continue
        }
        if command.arguments.isEmpty {
          if invocation.path.isEmpty, let hint = program.otherToolWords[word] {
            throw fail("\(program.root.name) has no '\(word)' command", hint: hint)
          }
          let names = command.visibleSubcommands.map(\.name)
          let aliases = command.visibleSubcommands.flatMap { sub in
            sub.aliases.map { (sub.name, $0) }
          }
          // An alias that is near gives its command's name.
          let hint =
            Suggestion.closest(to: word, among: names)
            ?? Suggestion.closest(to: word, among: aliases.map(\.1)).flatMap { near in
              aliases.first { $0.1 == near }?.0
            }
          throw fail("unknown command '\(word)'", hint: hint.map { "did you mean '\($0)'?" })
        }
      }
      invocation.arguments.append(word)
    }

    // Help and version never run a command, so nothing else about the line matters.
    if invocation.flag(Keys.help) || invocation.flag(Keys.version) { return invocation }
    let specs = command.arguments
    let required = specs.filter { !$0.optional }.count
    if invocation.arguments.count < required {
      if !command.subcommands.isEmpty && invocation.arguments.isEmpty && specs.isEmpty {
        throw fail("missing command")
      }
      throw fail("missing argument \(specs[invocation.arguments.count].name)")
    }
    if !(specs.last?.variadic ?? false) && invocation.arguments.count > specs.count {
      if !command.subcommands.isEmpty && specs.isEmpty {
        throw fail("missing command")
      }
      // The word is not repeated: a secret typed where it does not belong goes no further.
      let extra = invocation.arguments.count - specs.count
      let after =
        specs.last.map { "after \($0.name)" }
        ?? "('\(invocation.path.joined(separator: " "))' takes none)"
      throw fail(
        (extra == 1 ? "one argument" : "\(extra) arguments") + " too many \(after) (not shown: it"
          + " may be a secret)")
    }
    if specs.isEmpty && !command.subcommands.isEmpty && command.run == nil {
      throw fail("missing command", hint: nil)
    }
    invocation.argumentNames = invocation.arguments.indices.map {
      specs[min($0, specs.count - 1)].name
    }
    try checkValues(invocation, command: command, options: options(), fail: failWith)
    return invocation
  }

  /// True when `word` names one of `options` (`--help`, `-h`, `--vault=x`, `-fm`): it is then
  /// never taken as the value of the option before it, so `--label --help` never runs a command.
  static func isOption(_ word: String, _ options: [OptionSpec]) -> Bool {
    // Any word that looks like an option (`--x`, `-x`) is one, known here or not; a negative
    // number (`-3`) is a value. Such a value is given with '=' (`--label=--x`).
    guard word.hasPrefix("-"), let next = word.dropFirst().first else { return false }
    return !next.isNumber
  }

  /// Runs every typed option's and argument's check, options first in the order of the table.
  ///
  /// - Throws: `UsageError` for a `ValueError`; a `VaultError` unchanged (a bad entry name is
  ///   refused input, exit 5).
  private static func checkValues(
    _ invocation: Invocation, command: CommandSpec, options: [OptionSpec],
    fail: (String, String?) -> UsageError
  ) throws {
    do {
      for option in options {
        guard let check = option.check else { continue }
        for value in invocation.values[option.long] ?? [] { try check(value) }
      }
      for (word, name) in zip(invocation.arguments, invocation.argumentNames) {
        try command.arguments.first { $0.name == name }?.check?(word)
      }
    } catch let error as ValueError {
      throw fail(error.message, error.hint)
    }
  }
}

/// "Did you mean" by Levenshtein edit distance.
enum Suggestion {
  /// The candidate closest to `word`, when it is within a third of the word's length (at least 1,
  /// at most 3 edits).
  static func closest(to word: String, among candidates: [String]) -> String? {
    let limit = min(3, max(1, word.count / 3))
    let scored = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= limit }
    return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent
  /// transpositions (`lsit` is one edit from `list`).
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }
}
