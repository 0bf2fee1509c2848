import FoundationEssentials
import VaultCrypto

/// A version vector: for each device that wrote a commit of the sync repository (hex device id),
/// how many it wrote.
///
/// A state includes everything another state saw exactly when it is at least as large in every
/// count: a rolled-back or forked remote fails `includes`.
public struct VersionVector: Codable, Equatable, Sendable {
  /// Commits per hex device id.
  public var counts: [String: Int64]

  /// A vector with `counts`.
  public init(_ counts: [String: Int64] = [:]) { self.counts = counts }

  /// True when every count of `other` is at most this vector's.
  public func includes(_ other: VersionVector) -> Bool {
    other.counts.allSatisfy { device, count in (counts[device] ?? 0) >= count }
  }

  /// This vector with `device`'s count one more.
  package func advanced(by device: String) -> VersionVector {
    var next = self
    next.counts[device, default: 0] += 1
    return next
  }

  /// Bounds: hex ids of 16 bytes, counts from 1 to 2^62, at most `Header.maximumDevices * 16`
  /// devices (revoked ones stay).
  package var isWellFormed: Bool {
    counts.count <= Header.maximumDevices * 16
      && counts.allSatisfy { id, count in
        id.utf8.count == 32
          && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
          && count >= 1 && count <= 1 << 62
      }
  }

  /// Decodes the JSON object of counts.
  public init(from decoder: Decoder) throws {
    counts = try decoder.singleValueContainer().decode([String: Int64].self)
  }

  /// Encodes the JSON object of counts.
  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(counts)
  }
}
