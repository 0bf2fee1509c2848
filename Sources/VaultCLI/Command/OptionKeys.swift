import VaultFormat

/// A typed key for a flag: declares it in the table and reads it from an `Invocation`.
public struct Flag: Sendable {
  /// The table entry.
  public let spec: OptionSpec

  /// `--long` (and `-s`), with its one-line description.
  public init(_ long: String, short: Character? = nil, _ abstract: String, hidden: Bool = false) {
    spec = .flag(long, short: short, abstract, hidden: hidden)
  }
}

/// A typed key for an option with a value: its table entry and how a word becomes a `Value`,
/// so the parser checks the value and a runner reads it typed.
public struct Option<Value: Sendable>: Sendable {
  /// The table entry (its `check` is `parse`).
  public let spec: OptionSpec
  /// Turns a word into the value.
  let parse: @Sendable (String) throws -> Value

  init(
    _ long: String, short: Character?, valueName: String, abstract: String,
    completion: CompletionKind, hidden: Bool, parse: @escaping @Sendable (String) throws -> Value
  ) {
    spec = OptionSpec(
      long: long, short: short, valueName: valueName, abstract: abstract, completion: completion,
      hidden: hidden, check: { _ = try parse($0) })
    self.parse = parse
  }
}

extension Option where Value: ArgumentValue {
  /// `--long VALUE` whose type gives its parsing and completion (a choice, a path, a name…).
  public init(
    _ long: String, short: Character? = nil, _ valueName: String, _ abstract: String,
    hidden: Bool = false
  ) {
    self.init(
      long, short: short, valueName: valueName, abstract: abstract,
      completion: Value.completion, hidden: hidden
    ) { try Value(argument: $0, label: "--\(long)") }
  }
}

extension Option where Value == Int {
  /// `--long N`: a whole number in `range`.
  ///
  /// The check throws `ValueError` naming the range.
  ///
  /// - Parameter expected: what the message says is needed (default `a whole number from A to
  ///   B`, or `of at least A` when unbounded).
  public static func integer(
    _ long: String, short: Character? = nil, valueName: String = "N", _ abstract: String,
    in range: ClosedRange<Int>, expected: String? = nil, hidden: Bool = false
  ) -> Option<Int> {
    let label = "--\(long)"
    let needed =
      expected
      ?? (range.upperBound == Int.max
        ? "a whole number of at least \(range.lowerBound)"
        : "a whole number from \(range.lowerBound) to \(range.upperBound)")
    return Option(
      long, short: short, valueName: valueName, abstract: abstract, completion: .none,
      hidden: hidden
    ) { word in
      guard let value = Int(word), range.contains(value) else {
        throw ValueError("\(label) needs \(needed), not '\(word)'")
      }
      return value
    }
  }
}

/// Seconds given as `90s`, `15m`, `1h` or a plain number of seconds.
public struct Seconds: Equatable, Sendable {
  /// The length in seconds.
  public let value: Int
}

extension Option where Value == Seconds {
  /// `--long DURATION`: `90s`, `15m`, `1h` or plain seconds, within `range` (seconds).
  ///
  /// The check throws `ValueError` naming the forms or the range.
  public static func duration(
    _ long: String, _ abstract: String, in range: ClosedRange<Int>
  ) -> Option<Seconds> {
    Option(
      long, short: nil, valueName: "DURATION", abstract: abstract, completion: .none,
      hidden: false
    ) { word in
      let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
      var digits = Substring(word)
      var scale = 1
      if let last = word.last, let unit = units[last] {
        scale = unit
        digits = digits.dropLast()
      }
      guard digits.allSatisfy(\.isASCII), let number = Int(digits), number > 0,
        number <= Int.max / scale
      else {
        throw ValueError("invalid duration '\(word)' for --\(long) (such as 90s, 15m or 1h)")
      }
      let seconds = number * scale
      guard range.contains(seconds) else {
        throw ValueError(
          "--\(long) must be from \(ExitStatus.duration(range.lowerBound)) to"
            + " \(ExitStatus.duration(range.upperBound)), not '\(word)'")
      }
      return Seconds(value: seconds)
    }
  }
}

/// A typed key for a positional argument: its table entry and how a word becomes a `Value`.
public struct Argument<Value: ArgumentValue>: Sendable {
  /// The table entry (its `check` parses the word).
  public private(set) var spec: ArgumentSpec

  /// `NAME`, whose type gives its parsing and completion.
  public init(_ name: String, _ abstract: String, optional: Bool = false, variadic: Bool = false) {
    var spec = ArgumentSpec(
      name, abstract, optional: optional, variadic: variadic, completion: Value.completion)
    spec.check = { _ = try Value(argument: $0, label: name) }
    self.spec = spec
  }

  /// A copy completed as `completion` instead of the type's own (a free-text PREFIX completed
  /// with entry names).
  public func completing(_ completion: CompletionKind) -> Argument {
    var copy = self
    copy.spec.completion = completion
    return copy
  }
}

extension Invocation {
  /// True when the flag was given.
  public func flag(_ key: Flag) -> Bool { flag(key.spec.long) }

  /// The option's value (the last one given), or nil when it was not given.
  ///
  /// - Throws: the parse errors of the option (only for an invocation the parser did not check).
  public func value<Value>(_ key: Option<Value>) throws -> Value? {
    try value(key.spec.long).map(key.parse)
  }

  /// Every value of a repeatable option `key`, in order (none when it was not given).
  ///
  /// - Throws: the parse errors of the option's type.
  public func values<Value>(_ key: Option<Value>) throws -> [Value] {
    try allValues(key.spec.long).map(key.parse)
  }

  /// Every word of a variadic positional argument `key`, in order.
  ///
  /// - Throws: the parse errors of the argument's type.
  public func arguments<Value: ArgumentValue>(_ key: Argument<Value>) throws -> [Value] {
    try zip(argumentNames, arguments).filter { $0.0 == key.spec.name }.map {
      try Value(argument: $0.1, label: key.spec.name)
    }
  }

  /// The positional argument `key`, or nil when it was optional and not given.
  ///
  /// - Throws: the parse errors of the argument's type (only for an invocation the parser did
  ///   not check).
  public func argumentIfGiven<Value>(_ key: Argument<Value>) throws -> Value? {
    guard let index = argumentNames.firstIndex(of: key.spec.name) else { return nil }
    return try Value(argument: arguments[index], label: key.spec.name)
  }

  /// The required positional argument `key`.
  ///
  /// - Throws: `UsageError` when it is missing, and the parse errors of its type (both only for
  ///   an invocation the parser did not check).
  public func argument<Value>(_ key: Argument<Value>) throws -> Value {
    guard let value = try argumentIfGiven(key) else {
      throw UsageError(message: "missing argument \(key.spec.name)", path: path)
    }
    return value
  }
}
