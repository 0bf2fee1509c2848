/// A parsed command line: which command, with which options and arguments.
public struct Invocation: Equatable, Sendable {
  /// Command words after the program name, such as `["biometry", "activate"]`.
  public var path: [String]
  /// Values of options that take one, by long name, in the order given.
  public var values: [String: [String]] = [:]
  /// Flags given, by long name.
  public var flags: Set<String> = []
  /// Positional arguments.
  public var arguments: [String] = []
  /// The table name of each positional argument (`NAME`), aligned with `arguments`.
  public var argumentNames: [String] = []

  /// True when the flag was given.
  public func flag(_ long: String) -> Bool { flags.contains(long) }

  /// The last value given for an option (a repeated option overrides, as in most Unix tools).
  public func value(_ long: String) -> String? { values[long]?.last }

  /// Every value given for an option that may be repeated, in order.
  public func allValues(_ long: String) -> [String] { values[long] ?? [] }
}

/// A command line that does not fit the table: exit 64 with the usage line.
public struct UsageError: Error, Equatable, Sendable {
  /// What is wrong, such as `unknown option '--forse'`.
  public var message: String
  /// A suggestion such as `did you mean '--force'?`.
  public var hint: String?
  /// The command whose usage line to show.
  public var path: [String]
}
