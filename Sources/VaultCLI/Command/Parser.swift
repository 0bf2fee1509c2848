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
    var line = Line(words: arguments, program: program)
    while let word = line.nextWord() {
      if !line.optionsEnded && word == "--" {
        line.optionsEnded = true
      } else if !line.optionsEnded && word.hasPrefix("--") {
        try line.longOption(word)
      } else if !line.optionsEnded && word.hasPrefix("-") && word.count > 1 {
        try line.shortOptions(word)
      } else {
        try line.commandOrArgument(word)
      }
    }
    // Help and version never run a command, so nothing else about the line matters.
    if line.invocation.flag(Keys.help) || line.invocation.flag(Keys.version) {
      return line.invocation
    }
    try line.checkArgumentCount()
    try checkValues(
      line.invocation, command: line.command, options: line.options, fail: line.fail)
    return line.invocation
  }

  /// A command line as it is read, word by word: the command reached so far and what the
  /// invocation holds.
  private struct Line {
    let words: [String]
    let program: ProgramSpec
    var command: CommandSpec
    var invocation = Invocation(path: [])
    var index = 0
    var optionsEnded = false

    init(words: [String], program: ProgramSpec) {
      self.words = words
      self.program = program
      command = program.root
    }

    /// The options the command reached so far takes, its own and the global ones.
    var options: [OptionSpec] { command.options + program.globalOptions }

    /// The next word, nil at the end.
    mutating func nextWord() -> String? {
      guard index < words.count else { return nil }
      index += 1
      return words[index - 1]
    }

    /// A usage error of the command reached so far.
    func fail(_ message: String, _ hint: String? = nil) -> UsageError {
      UsageError(message: message, hint: hint, path: invocation.path)
    }

    mutating func record(_ option: OptionSpec, value: String?) {
      if let value {
        invocation.values[option.long, default: []].append(value)
      } else {
        invocation.flags.insert(option.long)
      }
    }

    /// `--name`, `--name=value` or `--name value`.
    ///
    /// - Throws: `UsageError` for an unknown option (with the nearest one), a value given to a
    ///   flag, or a missing value.
    mutating func longOption(_ word: String) throws {
      let body = word.dropFirst(2)
      let name = String(body.prefix { $0 != "=" })
      let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
      guard let option = options.first(where: { $0.long == name }) else {
        let candidates = options.filter { !$0.hidden }.map { "--" + $0.long }
        throw fail(
          "unknown option '--\(name)'",
          Suggestion.closest(to: "--" + name, among: candidates).map { "did you mean '\($0)'?" })
      }
      if option.valueName == nil {
        guard inline == nil else { throw fail("option '--\(name)' takes no value") }
        record(option, value: nil)
      } else if let inline {
        record(option, value: inline)
      } else {
        guard index < words.count, !isOption(words[index], options) else {
          throw fail(
            "option '--\(name)' needs a value \(option.valueName ?? "")",
            index < words.count
              ? "a value that starts with '-' is given as --\(name)=\(words[index])" : nil)
        }
        record(option, value: words[index])
        index += 1
      }
    }

    /// `-f`, clustered flags (`-fm`), `-o value` or `-ovalue`.
    ///
    /// - Throws: `UsageError` for an unknown letter or a missing value.
    mutating func shortOptions(_ word: String) throws {
      var letters = Array(word.dropFirst())
      while !letters.isEmpty {
        let letter = letters.removeFirst()
        guard let option = options.first(where: { $0.short == letter }) else {
          throw fail(
            "unknown option '-\(letter)'",
            command.arguments.isEmpty
              ? nil
              : "an argument that starts with '-' goes after '--' (vault never repeats it: it may"
                + " be a secret)")
        }
        if option.valueName == nil {
          record(option, value: nil)
          continue
        }
        if !letters.isEmpty {
          record(option, value: String(letters))
        } else {
          guard index < words.count, !isOption(words[index], options) else {
            throw fail("option '-\(letter)' needs a value \(option.valueName ?? "")")
          }
          record(option, value: words[index])
          index += 1
        }
        letters = []
      }
    }

    /// A subcommand of the command reached so far, or else a positional argument.
    ///
    /// - Throws: `UsageError` for an unknown command (with the nearest one, or the vault
    ///   command another tool's word stands for).
    mutating func commandOrArgument(_ word: String) throws {
      if invocation.arguments.isEmpty && !command.subcommands.isEmpty && !optionsEnded {
        if let sub = command.subcommand(word) {
          command = sub
          invocation.path.append(sub.name)
          return
        }
        if command.arguments.isEmpty {
          if invocation.path.isEmpty, let hint = program.otherToolWords[word] {
            throw fail("\(program.root.name) has no '\(word)' command", hint)
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
          throw fail("unknown command '\(word)'", hint.map { "did you mean '\($0)'?" })
        }
      }
      invocation.arguments.append(word)
    }

    /// Checks the positional arguments against the command's, and names each.
    ///
    /// - Throws: `UsageError` for a missing command or argument, or extra arguments (never
    ///   repeated: a secret typed where it does not belong goes no further).
    mutating func checkArgumentCount() throws {
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
        let extra = invocation.arguments.count - specs.count
        let after =
          specs.last.map { "after \($0.name)" }
          ?? "('\(invocation.path.joined(separator: " "))' takes none)"
        throw fail(
          (extra == 1 ? "one argument" : "\(extra) arguments") + " too many \(after) (not shown:"
            + " it may be a secret)")
      }
      if specs.isEmpty && !command.subcommands.isEmpty && command.run == nil {
        throw fail("missing command")
      }
      invocation.argumentNames = invocation.arguments.indices.map {
        specs[min($0, specs.count - 1)].name
      }
    }
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
