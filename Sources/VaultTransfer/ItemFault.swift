/// Why an item of a password manager's export cannot be an entry (`EntryContent.compose` and
/// the readers that name entries by their title).
public enum ItemFault: Equatable, Sendable {
  /// The item's title is empty.
  case noTitle
  /// The password holds a line break, so it cannot be the first line.
  case passwordHoldsLineBreak
  /// Everything is empty: an entry has at least one byte.
  case empty
}
