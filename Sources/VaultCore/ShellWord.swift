/// Text a user can paste into a POSIX shell as one command-line argument, for the commands the
/// hints suggest.
public enum ShellWord {
  /// Characters that need no quoting anywhere in a word.
  private static let plain = Set(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./,:@%+=-")

  /// `text` as one argument of a vault command: bare when it is plain, else in single quotes
  /// (a quote written `'\''`); after `-- ` when it starts with '-', so it is never an option.
  public static func argument(_ text: String) -> String {
    let word =
      !text.isEmpty && text.allSatisfy(plain.contains)
      ? text : "'" + text.replacing("'", with: #"'\''"#) + "'"
    return text.hasPrefix("-") ? "-- " + word : word
  }
}
