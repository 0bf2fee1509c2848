import CLibOATH
import Glibc
import VaultCrypto
import VaultFormat

/// One-time liboath initialisation (`oath_init`), run before any other liboath call.
enum LibOATH {
  static let ready: Void = {
    guard oath_init() == OATH_OK.rawValue else { fatalError("liboath could not be initialised") }
  }()
}

/// A one-time code generator read from an `otpauth://` URI (the Key URI Format of Google
/// Authenticator): TOTP (RFC 6238) or HOTP (RFC 4226), computed by liboath (oath-toolkit).
///
/// The secret stays in guarded memory from the URI to liboath; the URI's other parts (type, label,
/// parameters) are not secret.
public struct OneTimeCode: Sendable {
  /// The HMAC of the code.
  public enum Algorithm: String, CaseIterable, Sendable {
    /// HMAC-SHA-1, the default.
    case sha1 = "SHA1"
    /// HMAC-SHA-256 (TOTP only, as RFC 6238 allows).
    case sha256 = "SHA256"
    /// HMAC-SHA-512 (TOTP only).
    case sha512 = "SHA512"
  }

  /// Time-based or counter-based.
  public enum Kind: Equatable, Sendable {
    /// A code for each `period` seconds since the Unix epoch.
    case totp(period: Int)
    /// A code for each counter value; `counter` is the URI's (the first to use).
    case hotp(counter: UInt64)
  }

  /// The code lengths allowed (liboath's, and the Key URI Format's).
  public static let digitRange = 6...8
  /// TOTP periods allowed, in seconds.
  public static let periods = 1...86_400
  /// The largest counter a URI may give.
  public static let maximumCounter = UInt64(Int64.max)
  /// The longest decoded secret, in bytes.
  public static let maximumSecretBytes = 1024
  /// The shortest decoded secret, in bytes: 80 bits (16 base32 characters), the least that
  /// services issue; RFC 4226 asks for 128.
  public static let minimumSecretBytes = 10

  /// TOTP or HOTP, with its period or first counter.
  public let kind: Kind
  /// The HMAC; SHA1 unless the URI says otherwise.
  public let algorithm: Algorithm
  /// The code's length in digits, 6 to 8 (6 unless the URI says otherwise).
  public let digits: Int
  /// The URI's label, percent-decoded (empty when it has none).
  public let label: String
  /// The decoded secret.
  let secret: SecureBytes

  /// A generator for the raw `secret` (not base32).
  ///
  /// - Throws: `SecretError.oneTimeCode` for an empty secret, one under `minimumSecretBytes` or
  ///   over `maximumSecretBytes`,
  ///   `digits` outside 6–8, a period outside `periods`, a counter over `maximumCounter`, or an
  ///   HOTP code with an algorithm other than SHA1 (liboath's HOTP is HMAC-SHA-1 only).
  public init(
    secret: SecureBytes, kind: Kind, algorithm: Algorithm = .sha1, digits: Int = 6,
    label: String = ""
  ) throws {
    guard secret.count > 0 else { throw Self.refused(.emptySecret) }
    guard secret.count >= Self.minimumSecretBytes else {
      throw Self.refused(.secretTooShort(bytes: secret.count, minimum: Self.minimumSecretBytes))
    }
    guard secret.count <= Self.maximumSecretBytes else {
      throw Self.refused(.secretTooLong(bytes: secret.count, maximum: Self.maximumSecretBytes))
    }
    guard Self.digitRange.contains(digits) else {
      throw Self.refused(.badValue(.digits, String(digits)))
    }
    switch kind {
    case .totp(let period):
      guard Self.periods.contains(period) else {
        throw Self.refused(.badValue(.period, String(period)))
      }
    case .hotp(let counter):
      guard counter <= Self.maximumCounter else {
        throw Self.refused(.badValue(.counter, String(counter)))
      }
      guard algorithm == .sha1 else { throw Self.refused(.hotpAlgorithm(algorithm)) }
    }
    self.secret = secret
    self.kind = kind
    self.algorithm = algorithm
    self.digits = digits
    self.label = label
  }

  /// The error that refuses a code for `fault`.
  static func refused(_ fault: OneTimeCodeFault) -> SecretError { .oneTimeCode(fault) }

  /// The code for the Unix time `time` (seconds), TOTP only: liboath `oath_totp_generate2`,
  /// RFC 6238, epoch 0.
  ///
  /// - Returns: `digits` ASCII digits, in guarded memory.
  /// - Precondition: `kind` is `.totp`.
  /// - Throws: `SecretError.oneTimeCode` for a time before 1970; `.oneTimeCodeNotMade` when
  ///   liboath fails.
  public func code(at time: Double) throws -> SecureBytes {
    guard case .totp(let period) = kind else { preconditionFailure("an HOTP code has no time") }
    guard time >= 0, time < 1e15 else { throw Self.refused(.clockOutOfRange(time: time)) }
    let flags: Int32
    switch algorithm {
    case .sha1: flags = 0
    case .sha256: flags = Int32(OATH_TOTP_HMAC_SHA256.rawValue)
    case .sha512: flags = Int32(OATH_TOTP_HMAC_SHA512.rawValue)
    }
    return try generate { secret, length, output in
      oath_totp_generate2(
        secret, length, time_t(time.rounded(.down)), UInt32(period), 0, UInt32(digits), flags,
        output)
    }
  }

  /// The code for `counter`, HOTP only: liboath `oath_hotp_generate`, RFC 4226, dynamic
  /// truncation, no checksum digit.
  ///
  /// - Returns: `digits` ASCII digits, in guarded memory.
  /// - Throws: `SecretError.oneTimeCodeNotMade` when liboath fails.
  public func code(counter: UInt64) throws -> SecureBytes {
    try generate { secret, length, output in
      oath_hotp_generate(
        secret, length, counter, UInt32(digits), false,
        Int(bitPattern: OATH_HOTP_DYNAMIC_TRUNCATION), output)
    }
  }

  /// Runs a liboath generator with the secret and an output buffer in guarded memory.
  private func generate(
    _ body: (UnsafePointer<CChar>, Int, UnsafeMutablePointer<CChar>) -> Int32
  ) throws -> SecureBytes {
    _ = LibOATH.ready
    let output = SecureBytes(count: digits + 1)
    let status = secret.withBytes { key in
      output.withMutableBytes { out -> Int32 in
        guard let key = key.baseAddress, let out = out.baseAddress else {
          return OATH_MALLOC_ERROR.rawValue
        }
        return body(
          key.assumingMemoryBound(to: CChar.self), secret.count,
          out.assumingMemoryBound(to: CChar.self))
      }
    }
    guard status == OATH_OK.rawValue else {
      throw SecretError.oneTimeCodeNotMade(liboath: String(cString: oath_strerror(status)))
    }
    return output.prefix(digits)
  }

  /// Seconds until the TOTP code for `time` changes (1 to the period); nil for HOTP.
  public func secondsLeft(at time: Double) -> Int? {
    guard case .totp(let period) = kind, time >= 0, time < 1e15 else { return nil }
    return period - Int(Int64(time.rounded(.down)) % Int64(period))
  }
}

extension OneTimeCode {
  /// Decodes a base32 secret (RFC 4648; upper or lower case, with or without `=` padding,
  /// spaces ignored) into guarded memory: liboath `oath_base32_decode`, whose buffer is wiped
  /// and freed.
  ///
  /// - Throws: `SecretError.oneTimeCode` for text that is not base32, an empty secret or one
  ///   over `maximumSecretBytes`.
  static func decodeBase32(_ text: UnsafeRawBufferPointer) throws -> SecureBytes {
    _ = LibOATH.ready
    guard let base = text.baseAddress, text.count > 0 else { throw refused(.emptySecret) }
    var decoded: UnsafeMutablePointer<CChar>?
    var length = 0
    let status = oath_base32_decode(
      base.assumingMemoryBound(to: CChar.self), text.count, &decoded, &length)
    defer {
      if let decoded {
        secureWipe(decoded, count: length)
        free(decoded)
      }
    }
    guard status == OATH_OK.rawValue, let decoded else { throw refused(.secretNotBase32) }
    guard length > 0 else { throw refused(.emptySecret) }
    guard length <= maximumSecretBytes else {
      throw refused(.secretTooLong(bytes: length, maximum: maximumSecretBytes))
    }
    let out = SecureBytes(count: length)
    out.write(UnsafeRawBufferPointer(start: decoded, count: length))
    return out
  }

  /// Reads an `otpauth://totp/LABEL?secret=…` or `otpauth://hotp/LABEL?secret=…&counter=N` URI.
  ///
  /// The scheme, the type, parameter names and algorithm values are matched without regard to
  /// case; the label and the values are percent-decoded; parameters other than `secret`,
  /// `algorithm`, `digits`, `period` and `counter` (such as `issuer`) are ignored, as is a
  /// `#` fragment. Defaults: SHA1, 6 digits, a 30-second period. HOTP needs `counter`.
  ///
  /// - Throws: `SecretError.oneTimeCode` with the reason: not an `otpauth://` URI, an unknown
  ///   type, a malformed percent-escape, a parameter given twice, a missing, empty or non-base32
  ///   secret, digits outside 6–8, a period outside `periods`, an unknown algorithm, a missing or
  ///   malformed counter.
  public init(uri: SecureBytes) throws {
    let parsed = try uri.withBytes { try URIParts($0) }
    let type = parsed.type.lowercased()
    guard type == "totp" || type == "hotp" else { throw Self.refused(.unknownType(parsed.type)) }
    guard let secretText = parsed.secret else { throw Self.refused(.missingParameter(.secret)) }
    let secret = try secretText.withBytes { try Self.decodeBase32($0) }
    var algorithm = Algorithm.sha1
    if let value = parsed.values["algorithm"] {
      guard let known = Algorithm(rawValue: value.uppercased()) else {
        throw Self.refused(.badValue(.algorithm, value))
      }
      algorithm = known
    }
    var digits = 6
    if let value = parsed.values["digits"] {
      guard let number = Self.number(value), let small = Int(exactly: number),
        Self.digitRange.contains(small)
      else { throw Self.refused(.badValue(.digits, value)) }
      digits = small
    }
    let kind: Kind
    if type == "totp" {
      var period = 30
      if let value = parsed.values["period"] {
        guard let number = Self.number(value), let small = Int(exactly: number),
          Self.periods.contains(small)
        else { throw Self.refused(.badValue(.period, value)) }
        period = small
      }
      kind = .totp(period: period)
    } else {
      guard let value = parsed.values["counter"] else {
        throw Self.refused(.missingParameter(.counter))
      }
      guard let counter = Self.number(value), counter <= Self.maximumCounter else {
        throw Self.refused(.badValue(.counter, value))
      }
      kind = .hotp(counter: counter)
    }
    try self.init(
      secret: secret, kind: kind, algorithm: algorithm, digits: digits, label: parsed.label)
  }

  /// A decimal number of 1 to 19 digits, nothing else (no sign, no spaces).
  static func number(_ text: String) -> UInt64? {
    guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    else { return nil }
    return UInt64(text)
  }

  /// The URI that stores a bare base32 `secret`: `otpauth://totp/LABEL?secret=SECRET`, the label
  /// percent-encoded (every byte but A–Z, a–z, 0–9, `-`, `.`, `_` and `~`), the secret in upper
  /// case without spaces or padding.
  ///
  /// - Throws: `SecretError.oneTimeCode` when `secret` is not base32 or is empty.
  public static func uri(secret: SecureBytes, label: String) throws -> SecureBytes {
    _ = try secret.withBytes { try decodeBase32($0) }
    var head = Array("otpauth://totp/".utf8)
    for byte in label.utf8 {
      if isUnreserved(byte) {
        head.append(byte)
      } else {
        head.append(contentsOf: Array("%".utf8) + hexDigits(byte))
      }
    }
    head += Array("?secret=".utf8)
    let kept = secret.withBytes { bytes in
      bytes.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "=") }.count
    }
    let out = SecureBytes(count: head.count + kept)
    out.withMutableBytes { target in
      for (index, byte) in head.enumerated() { target[index] = byte }
      var offset = head.count
      secret.withBytes { bytes in
        for byte in bytes where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "=") {
          // Lower-case letters to upper case; digits stay.
          target[offset] = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
          offset += 1
        }
      }
    }
    return out
  }

  static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }

  static func hexDigits(_ byte: UInt8) -> [UInt8] {
    let digits = Array("0123456789ABCDEF".utf8)
    return [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
  }
}

/// The parts of an `otpauth://` URI, read in place: the secret's value percent-decoded into
/// guarded memory, every other part (not secret) as a string.
struct URIParts {
  /// The type as written (between `otpauth://` and the next `/`, `?` or `#`).
  var type: String
  /// The label, percent-decoded.
  var label: String
  /// The `secret` parameter's value, percent-decoded.
  var secret: SecureBytes?
  /// The other known parameters by lower-case name, percent-decoded.
  var values: [String: String] = [:]

  init(_ bytes: UnsafeRawBufferPointer) throws {
    let scheme = Array("otpauth://".utf8)
    guard bytes.count >= scheme.count,
      zip(bytes.prefix(scheme.count), scheme).allSatisfy({ EntryFields.lowercase($0) == $1 })
    else { throw OneTimeCode.refused(.notAnOTPAuthURI) }
    var end = bytes.count
    if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { end = hash }
    let query = bytes[scheme.count..<end].firstIndex(of: UInt8(ascii: "?")) ?? end
    let path = scheme.count..<query
    let slash = bytes[path].firstIndex(of: UInt8(ascii: "/")) ?? query
    type = String(decoding: bytes[scheme.count..<slash], as: UTF8.self)
    label = ""
    if slash < query {
      label = String(decoding: try Self.decoded(bytes[(slash + 1)..<query]), as: UTF8.self)
    }
    guard query < end else { return }
    var start = query + 1
    while start <= end {
      let stop = bytes[start..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
      if stop > start {
        let equals = bytes[start..<stop].firstIndex(of: UInt8(ascii: "=")) ?? stop
        let name = String(decoding: try Self.decoded(bytes[start..<equals]), as: UTF8.self)
          .lowercased()
        let value = equals < stop ? (equals + 1)..<stop : stop..<stop
        if let parameter = OneTimeCode.Parameter(rawValue: name) {
          guard values[name] == nil, parameter != .secret || secret == nil else {
            throw OneTimeCode.refused(.repeatedParameter(parameter))
          }
          if parameter == .secret {
            secret = try Self.decodedSecret(bytes[value])
          } else {
            values[name] = String(decoding: try Self.decoded(bytes[value]), as: UTF8.self)
          }
        }
      }
      start = stop + 1
    }
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }

  /// Percent-decodes public bytes.
  static func decoded(_ bytes: Slice<UnsafeRawBufferPointer>) throws -> [UInt8] {
    var out: [UInt8] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == UInt8(ascii: "%") {
        guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
          let low = hexValue(bytes[index + 2])
        else { throw OneTimeCode.refused(.badPercentEscape) }
        out.append(high << 4 | low)
        index += 3
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return out
  }

  /// Percent-decodes the secret into guarded memory.
  static func decodedSecret(_ bytes: Slice<UnsafeRawBufferPointer>) throws -> SecureBytes {
    let buffer = SecureBytes(count: bytes.count)
    var count = 0
    var index = bytes.startIndex
    while index < bytes.endIndex {
      var byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
          let low = hexValue(bytes[index + 2])
        else { throw OneTimeCode.refused(.badPercentEscape) }
        byte = high << 4 | low
        index += 3
      } else {
        index += 1
      }
      buffer[count] = byte
      count += 1
    }
    return buffer.prefix(count)
  }
}
