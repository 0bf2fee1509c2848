import VaultCore
import VaultCrypto
import VaultFormat

/// An export's output gathered in guarded memory and handed to its sink 64 KiB at a time, so
/// that a plaintext format makes few writes and no copy of a secret outside guarded memory: the
/// bytes leave it only in the sink (the `write(2)` to the file).
final class OutputBuffer {
  private let sink: ExportSink
  private let buffer = SecureBytes(count: OutputBuffer.capacity)
  private var filled = 0

  init(_ sink: @escaping ExportSink) { self.sink = sink }

  /// Appends one byte.
  func append(_ byte: UInt8) throws {
    if filled == buffer.count { try flush() }
    buffer[filled] = byte
    filled += 1
  }

  /// Appends `bytes`.
  func append(_ bytes: UnsafeRawBufferPointer) throws {
    guard let source = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      if filled == buffer.count { try flush() }
      let n = min(buffer.count - filled, bytes.count - offset)
      let at = filled
      buffer.withMutableBytes { target in
        target.baseAddress.map { ($0 + at).copyMemory(from: source + offset, byteCount: n) }
      }
      filled += n
      offset += n
    }
  }

  /// Appends the bytes of `secret`.
  func append(_ secret: SecureBytes) throws { try secret.withBytes { try append($0) } }

  /// Appends public text (markup, punctuation, names, times).
  func append(_ text: String) throws {
    try Array(text.utf8).withUnsafeBytes { try append($0) }
  }

  /// Appends `bytes` (UTF-8) as a JSON string: `"` and `\` escaped, LF, CR and tab as `\n`, `\r`
  /// and `\t`, every other control character and DEL as `\u00XX` (`ByteBuilder.appendJSONString`
  /// escapes the same way).
  func appendJSONString(_ bytes: UnsafeRawBufferPointer) throws {
    let hex = Array("0123456789abcdef".utf8)
    try append(UInt8(ascii: "\""))
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        try append(0x5C)
        try append(byte)
      case 0x0A: try append("\\n")
      case 0x0D: try append("\\r")
      case 0x09: try append("\\t")
      case 0..<0x20, 0x7F:
        try append("\\u00")
        try append(hex[Int(byte >> 4)])
        try append(hex[Int(byte & 15)])
      default: try append(byte)
      }
    }
    try append(UInt8(ascii: "\""))
  }

  /// Appends a JSON string of public text.
  func appendJSONString(_ text: String) throws {
    try Array(text.utf8).withUnsafeBytes { try appendJSONString($0) }
  }

  /// The most `write(count:_:)` may ask for at once.
  static let capacity = 64 * 1024

  /// Lets `body` fill the next `count` bytes (at most `capacity`) in place, in guarded memory.
  func write(count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) throws {
    precondition(count <= buffer.count, "a write in place fits the buffer")
    if buffer.count - filled < count { try flush() }
    let at = filled
    buffer.withMutableBytes { body(UnsafeMutableRawBufferPointer(rebasing: $0[at..<at + count])) }
    filled += count
  }

  /// Hands what is gathered to the sink.
  func flush() throws {
    guard filled > 0 else { return }
    let count = filled
    filled = 0
    try buffer.withBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
  }
}

/// Standard base64 (RFC 4648, section 4, with `=` padding and no line breaks) written as the
/// bytes arrive, piece by piece: up to two bytes are carried (in guarded memory) to the next
/// piece.
struct Base64Encoder {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  private let carry = SecureBytes(count: 3)
  private var carried = 0

  /// Encodes `bytes` after what was carried, into `out`: whole groups straight into its buffer.
  mutating func encode(_ bytes: UnsafeRawBufferPointer, into out: OutputBuffer) throws {
    var offset = 0
    while carried > 0 && offset < bytes.count {
      carry[carried] = bytes[offset]
      carried += 1
      offset += 1
      if carried == 3 {
        try emit(3, into: out)
        carried = 0
      }
    }
    while bytes.count - offset >= 3 {
      let groups = min((bytes.count - offset) / 3, OutputBuffer.capacity / 4)
      let start = offset
      try out.write(count: groups * 4) { target in
        for group in 0..<groups {
          let a = Int(bytes[start + 3 * group])
          let b = Int(bytes[start + 3 * group + 1])
          let c = Int(bytes[start + 3 * group + 2])
          target[4 * group] = Self.alphabet[a >> 2]
          target[4 * group + 1] = Self.alphabet[(a & 3) << 4 | b >> 4]
          target[4 * group + 2] = Self.alphabet[(b & 15) << 2 | c >> 6]
          target[4 * group + 3] = Self.alphabet[c & 63]
        }
      }
      offset += groups * 3
    }
    while offset < bytes.count {
      carry[carried] = bytes[offset]
      carried += 1
      offset += 1
    }
  }

  /// Encodes what is carried, padded with `=`.
  mutating func finish(into out: OutputBuffer) throws {
    guard carried > 0 else { return }
    for index in carried..<3 { carry[index] = 0 }
    try emit(carried, into: out)
    carried = 0
  }

  /// Writes the group of the 3 carried bytes, of which `count` are data.
  private func emit(_ count: Int, into out: OutputBuffer) throws {
    let a = Int(carry[0])
    let b = Int(carry[1])
    let c = Int(carry[2])
    try out.append(Self.alphabet[a >> 2])
    try out.append(Self.alphabet[(a & 3) << 4 | b >> 4])
    try out.append(count > 1 ? Self.alphabet[(b & 15) << 2 | c >> 6] : UInt8(ascii: "="))
    try out.append(count > 2 ? Self.alphabet[c & 63] : UInt8(ascii: "="))
  }
}
