/// The padded length of a format-2 content or journal text, so that a ciphertext's size shows only
/// a coarse bucket of the plaintext's size.
public enum Padding {
  /// The smallest padded length: every text of up to 256 bytes is padded to 256.
  public static let minimumLength = 256

  /// The length, in bytes, that a text of `length` bytes is padded to: 256 when `length` ≤ 256,
  /// otherwise Padmé (Nikitin et al., "Reducing Metadata Leakage from Encrypted Files and
  /// Communication with PURBs", PETS 2019).
  ///
  /// With `E = floor(log2 L)` and `S = floor(log2 E) + 1`, Padmé rounds `L` up to a multiple of
  /// `2^(E − S)`, so that the result has at most `S` significant bits: it is at least `L` and
  /// exceeds it by at most `2^(E − S) − 1`, which is less than `L / E`, so under 1/8 of `L` here
  /// (`E` ≥ 8) and less as `L` grows. Traps for a negative `length`, and on overflow for lengths
  /// within 2^56 of `Int.max`.
  public static func paddedLength(_ length: Int) -> Int {
    precondition(length >= 0, "a length is not negative")
    guard length > minimumLength else { return minimumLength }
    let exponent = Int.bitWidth - 1 - length.leadingZeroBitCount
    let bitsOfExponent = Int.bitWidth - exponent.leadingZeroBitCount
    let mask = (1 << (exponent - bitsOfExponent)) - 1
    return (length + mask) & ~mask
  }
}
