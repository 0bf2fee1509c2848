/// What is wrong with a one-time code's `otpauth://` URI, its secret, its counter or the clock:
/// which part, which value, which limit.
///
/// Thrown as `SecretError.oneTimeCode`. Values are as the URI gives them (percent-decoded); the
/// command line shows them in printable ASCII.
public enum OneTimeCodeFault: Equatable, Sendable {
  /// The text does not start with `otpauth://`.
  case notAnOTPAuthURI
  /// The URI's type (after `otpauth://`) is neither `totp` nor `hotp`.
  case unknownType(String)
  /// A `%` is not followed by two hex digits.
  case badPercentEscape
  /// A parameter is given twice.
  case repeatedParameter(OneTimeCode.Parameter)
  /// A parameter the URI needs is missing: `secret`, or `counter` for HOTP.
  case missingParameter(OneTimeCode.Parameter)
  /// A parameter's `value` is not one the URI may give (`digits`, `period`, `counter`, an
  /// unknown `algorithm`).
  case badValue(OneTimeCode.Parameter, String)
  /// An HOTP code's algorithm is not SHA1 (liboath's HOTP is HMAC-SHA-1 only).
  case hotpAlgorithm(OneTimeCode.Algorithm)
  /// The secret is empty.
  case emptySecret
  /// The secret is not base32.
  case secretNotBase32
  /// The secret has `bytes` bytes, under `minimum` (`OneTimeCode.minimumSecretBytes`).
  case secretTooShort(bytes: Int, minimum: Int)
  /// The secret has `bytes` bytes, over `maximum` (`OneTimeCode.maximumSecretBytes`).
  case secretTooLong(bytes: Int, maximum: Int)
  /// The clock (`time`, Unix seconds) is before 1970 or too far ahead for a code.
  case clockOutOfRange(time: Double)
  /// The HOTP counter stored for the entry `entry` is at `OneTimeCode.maximumCounter`.
  case counterExhausted(entry: String)
}

extension OneTimeCode {
  /// A parameter of an `otpauth://` URI, by its lower-case name.
  public enum Parameter: String, CaseIterable, Sendable {
    /// `secret=`, the base32 secret.
    case secret
    /// `algorithm=`, the HMAC.
    case algorithm
    /// `digits=`, the code's length.
    case digits
    /// `period=`, a TOTP code's seconds.
    case period
    /// `counter=`, an HOTP code's first counter.
    case counter
  }
}
