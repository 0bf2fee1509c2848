/// Why an import wrote nothing though every item was valid: the source changed between its two
/// reads.
public enum ImportError: Error, Equatable, Sendable {
  /// The second read gave other items (or another item in another place) than the first.
  case sourceGaveOtherItems
  /// The second read gave fewer items than the first.
  case sourceGaveFewerItems
}
