import FoundationEssentials
import Glibc

extension Array where Element == UInt8 {
  /// Standard base64 with padding.
  package var base64: String { Data(self).base64EncodedString() }

  /// Lower-case hex.
  public var hex: String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(count * 2)
    for byte in self {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes standard base64, requiring exactly `count` bytes when given.
  ///
  /// - Throws: `VaultError.malformedHeader` naming `field`.
  package init(base64 text: String, count: Int? = nil, field: String) throws {
    guard let data = Data(base64Encoded: text), count == nil || data.count == count else {
      throw VaultError.malformedHeader(.invalidBase64(field: field))
    }
    self = [UInt8](data)
  }
}

/// Big-endian encodings used in associated data.
package enum Bytes {
  package static func u32(_ value: Int) -> [UInt8] {
    let v = UInt32(truncatingIfNeeded: value)
    return [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)]
  }
}
