import Glibc

/// Numbers written as C's `printf` writes them, without Foundation's `String(format:)` (which
/// would link Foundation into every command).
enum NumberText {
  /// `value` with `places` digits after the point, rounded as `%.<places>f` rounds it
  /// (`fixed(2.345, places: 2)` is `"2.35"` or `"2.34"` as the binary value falls).
  static func fixed(_ value: Double, places: Int) -> String {
    let format = "%.\(places)f"
    let needed = withVaList([value]) { vsnprintf(nil, 0, format, $0) }
    guard needed >= 0 else { return String(value) }
    var buffer = [CChar](repeating: 0, count: Int(needed) + 1)
    _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
    return String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `unit` as four lowercase hexadecimal digits (`0x1b` is `"001b"`), as `%04x` writes it.
  static func hex4(_ unit: UInt16) -> String {
    let digits = String(unit, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
