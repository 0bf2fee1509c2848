/// Why `GuardedBase64` refuses a text.
public enum Base64Fault: Equatable, Sendable {
  /// A byte is outside the alphabet, or a digit follows `=`.
  case outsideAlphabet
  /// The length leaves a single digit in the last group, or the padding is wrong.
  case wrongLength
}
