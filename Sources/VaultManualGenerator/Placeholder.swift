/// The value of a `{{name}}` placeholder in a manual source: text from the code, or whole blocks.
enum Placeholder: Equatable {
  /// Text that takes the placeholder's place wherever it stands: in prose, a tag or an example.
  ///
  /// It is read as prose after the substitution, so its inline marks count. In an example it may
  /// hold several lines.
  case text(String)
  /// Blocks that only a line of their own can stand for, such as COMMANDS built from a table.
  case blocks([ManualBlock])
}
