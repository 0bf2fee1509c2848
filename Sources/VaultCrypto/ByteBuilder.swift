/// Bytes appended into guarded memory that grows by doubling (old copies are wiped as they are
/// released).
public struct ByteBuilder {
  private var buffer: SecureBytes
  /// Bytes appended so far.
  public private(set) var count = 0

  /// An empty builder; its buffers, and the one `finish` returns, are packed
  /// (`SecureBytes.init(count:packed:)`) when `packed`.
  public init(packed: Bool = false) {
    buffer = SecureBytes(count: 256, packed: packed)
  }

  private mutating func reserve(_ extra: Int) {
    guard count + extra > buffer.count else { return }
    var size = buffer.count
    while size < count + extra { size *= 2 }
    // Failing to allocate stops the process, as for any `SecureBytes(count:)`.
    let grown = SecureBytes(count: size, packed: buffer.isPacked)
    let old = buffer
    grown.withMutableBytes { target in old.withBytes { target.copyMemory(from: $0) } }
    buffer = grown
  }

  /// Appends one byte.
  public mutating func append(_ byte: UInt8) {
    reserve(1)
    buffer[count] = byte
    count += 1
  }

  /// Appends `bytes`.
  public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
    reserve(bytes.count)
    let start = count
    buffer.withMutableBytes { target in
      var offset = start
      for byte in bytes {
        target[offset] = byte
        offset += 1
      }
    }
    count += bytes.count
  }

  /// Drops the last `n` bytes appended.
  public mutating func dropLast(_ n: Int) { count -= min(n, count) }

  /// A JSON string of UTF-8 `bytes`: `"` and `\` escaped, control characters as `\n`, `\r`,
  /// `\t` or `\u00XX`.
  public mutating func appendJSONString<C: Collection>(_ bytes: C) where C.Element == UInt8 {
    let hex = Array("0123456789abcdef".utf8)
    append(UInt8(ascii: "\""))
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\""): append([0x5C, byte])
      case 0x5C: append([0x5C, 0x5C])
      case 0x0A: append(Array("\\n".utf8))
      case 0x0D: append(Array("\\r".utf8))
      case 0x09: append(Array("\\t".utf8))
      case 0..<0x20, 0x7F:
        append(Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
      default: append(byte)
      }
    }
    append(UInt8(ascii: "\""))
  }

  /// The bytes appended, in a buffer of their size.
  public func finish() -> SecureBytes { buffer.prefix(count) }
}

extension ByteBuilder {
  /// Appends the bytes of `secret`.
  public mutating func append(_ secret: SecureBytes) {
    secret.withBytes { append($0[...]) }
  }
}
