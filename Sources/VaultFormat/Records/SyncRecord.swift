import FoundationEssentials
import VaultCrypto

/// A device's record of its last sync (`vault(5)`, the kind sync).
///
/// The base commit and what it held, and the vault's bucket aggregates as merged with it, so
/// that the next sync finds the local changes by comparing aggregates instead of reading every
/// record. It never leaves the device.
package struct SyncRecord: Equatable {
  /// The base commit (40 hex digits).
  package var base: String
  /// The files aggregate of the base's tree (32 bytes).
  package var files: [UInt8]
  /// The base's version vector.
  package var vector: VersionVector
  /// The bucket aggregates of the vault as merged with the base (256 × 32 bytes), this record
  /// left out.
  package var buckets: [UInt8]
  /// Buckets holding local changes not yet pushed.
  package var marked: [Int]
  /// True after a master-key rotation renamed every file: the next push replaces the tree.
  package var full: Bool
  /// BLAKE2b-32 of the header body as merged with the base; nil in a record from before
  /// release 0.10.0 (the next sync then compares the header with the base's).
  package var header: [UInt8]?

  private struct Body: Codable {
    var base: String
    var buckets: String
    var files: String
    var full: Bool?
    var header: String?
    var marked: [Int]
    var vector: VersionVector
  }

  /// The record id of `deviceID`'s sync record: `BLAKE2b-16(nameIndex, label || device id)`.
  package static func recordID(deviceID: [UInt8], indexKey: SymmetricKey) -> [UInt8] {
    GenericHash.keyed(
      key: indexKey.bytes, parts: [DomainLabel.syncDevice.bytes, deviceID], outputLength: 16)
  }

  /// The JSON body, keys sorted.
  package func encoded() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      return try [UInt8](
        encoder.encode(
          Body(
            base: base, buckets: buckets.base64, files: files.base64, full: full ? true : nil,
            header: header?.base64, marked: marked, vector: vector)))
    } catch {
      throw VaultError.storage(.unencodable(.syncRecord))
    }
  }

  /// Parses a body.
  ///
  /// - Throws: `VaultError.integrity` when it is malformed.
  package init(decoding body: SecureBytes) throws {
    let bad = VaultError.integrity(.record(.malformedSyncRecord))
    guard let decoded = body.withBytes({ try? JSONDecoder().decode(Body.self, from: Data($0)) }),
      decoded.base.utf8.count == 40, decoded.vector.isWellFormed,
      decoded.marked.allSatisfy({ (0..<StateSnapshot.bucketCount).contains($0) }),
      let files = try? [UInt8](base64: decoded.files, count: 32, field: "files"),
      let buckets = try? [UInt8](
        base64: decoded.buckets, count: 32 * StateSnapshot.bucketCount, field: "buckets")
    else { throw bad }
    var header: [UInt8]?
    if let text = decoded.header {
      guard let digest = try? [UInt8](base64: text, count: 32, field: "header") else { throw bad }
      header = digest
    }
    self.init(
      base: decoded.base, files: files, vector: decoded.vector, buckets: buckets,
      marked: decoded.marked, full: decoded.full == true, header: header)
  }

  package init(
    base: String, files: [UInt8], vector: VersionVector, buckets: [UInt8], marked: [Int],
    full: Bool, header: [UInt8]?
  ) {
    self.header = header
    self.base = base
    self.files = files
    self.vector = vector
    self.buckets = buckets
    self.marked = marked
    self.full = full
  }

  /// The digest `header` keeps of a header body.
  package static func headerDigest(_ body: [UInt8]) -> [UInt8] { GenericHash.hash(parts: [body]) }

  /// The aggregate of bucket `index` as recorded.
  package func bucket(_ index: Int) -> [UInt8] { Array(buckets[(index * 32)..<(index * 32 + 32)]) }
}
