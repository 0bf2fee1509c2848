import VaultFormat

/// Why a manual source cannot be made into a page; each case names the source and, where there is
/// one, the line.
public enum ManualSourceError: Error, Equatable, CustomStringConvertible {
  /// A line the markup does not allow, such as an unknown directive or an `.example` never ended.
  case syntax(path: String, line: Int, message: String)
  /// `{{name}}` names no value the generator provides for this page.
  case unknownPlaceholder(path: String, line: Int, name: String)
  /// `{{name}}` stands for blocks but is used inside text.
  case blockPlaceholderInText(path: String, line: Int, name: String)
  /// The generator provides these values for the page, and the source never uses them.
  case unusedPlaceholders(path: String, names: [String])
  /// The source file cannot be read.
  case unreadable(path: String)
  /// A generated file cannot be written: its path and the system's reason.
  case unwritable(path: String, reason: String)

  /// One line for a person: `man/src/vault.5.in:12: unknown placeholder {{chunk}}`.
  public var description: String {
    switch self {
    case .syntax(let path, let line, let message):
      return "\(path):\(line): \(message)"
    case .unknownPlaceholder(let path, let line, let name):
      return "\(path):\(line): unknown placeholder {{\(name)}}"
    case .blockPlaceholderInText(let path, let line, let name):
      return "\(path):\(line): {{\(name)}} stands for whole blocks: put it on a line of its own"
    case .unusedPlaceholders(let path, let names):
      let list = names.map { "{{\($0)}}" }.joined(separator: ", ")
      return "\(path): the generator provides \(list), but the source never uses "
        + (names.count == 1 ? "it" : "them")
    case .unwritable(let path, let reason):
      return "cannot write \(path): \(reason)"
    case .unreadable(let path):
      return "\(path): cannot be read"
    }
  }
}
