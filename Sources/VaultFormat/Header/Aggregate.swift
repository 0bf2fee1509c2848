/// An order-independent digest of a set of rows: the sum, modulo 2^256, of their row hashes.
///
/// Holds an unsigned 256-bit integer as 32 bytes, little-endian. Adding a row's hash when it is
/// inserted and subtracting it when it is deleted keeps the aggregate equal to the sum over the
/// rows present, in whatever order they changed (addition, not XOR, so that a row present twice
/// does not cancel out).
public struct Aggregate: Equatable, Sendable {
  /// Length in bytes.
  public static let byteCount = 32
  /// The aggregate of no rows: 32 zero bytes.
  public static let zero = Aggregate(unchecked: [UInt8](repeating: 0, count: byteCount))

  /// The 32 bytes, least significant first.
  public private(set) var bytes: [UInt8]

  /// Wraps 32 bytes, least significant first; nil for any other length.
  public init?(bytes: [UInt8]) {
    guard bytes.count == Self.byteCount else { return nil }
    self.bytes = bytes
  }

  private init(unchecked bytes: [UInt8]) { self.bytes = bytes }

  /// Adds the 32-byte little-endian integer `other`, modulo 2^256; traps for any other length.
  public mutating func add(_ other: [UInt8]) {
    precondition(other.count == Self.byteCount, "an aggregate term is 32 bytes")
    var carry: UInt16 = 0
    for index in 0..<Self.byteCount {
      let sum = UInt16(bytes[index]) + UInt16(other[index]) + carry
      bytes[index] = UInt8(truncatingIfNeeded: sum)
      carry = sum >> 8
    }
  }

  /// Subtracts the 32-byte little-endian integer `other`, modulo 2^256; traps for any other
  /// length.
  public mutating func subtract(_ other: [UInt8]) {
    precondition(other.count == Self.byteCount, "an aggregate term is 32 bytes")
    var borrow: UInt16 = 0
    for index in 0..<Self.byteCount {
      let subtrahend = UInt16(other[index]) + borrow
      let minuend = UInt16(bytes[index])
      borrow = minuend < subtrahend ? 1 : 0
      bytes[index] = UInt8(truncatingIfNeeded: minuend + (borrow << 8) - subtrahend)
    }
  }
}
