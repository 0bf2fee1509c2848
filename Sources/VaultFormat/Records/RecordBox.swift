import FoundationEssentials
import Glibc
import VaultCrypto

/// The sealing of format-2 records and content chunks (`vault(5)`, RECORDS): XChaCha20-Poly1305
/// under the `records` subkey, with the record's id, kind and revision (or the chunk's place and
/// final flag) in the associated data, and padding that hides lengths.
package struct RecordBox {
  /// What a record box holds besides its body.
  package struct Opened {
    /// The writing device's id (16 bytes).
    package let deviceID: [UInt8]
    /// The hybrid logical clock of the write.
    package let hlc: UInt64
    /// The whole plaintext (clock, device id, length, body, padding), in guarded memory.
    let plain: SecureBytes
    /// Where the JSON body lies in `plain`.
    let bodyRange: Range<Int>

    /// The JSON body, copied into guarded memory of its own.
    package var body: SecureBytes {
      plain.withBytes { SecureBytes(copying: $0[bodyRange], packed: plain.isPacked) }
    }
  }

  /// Record plaintexts are padded to a multiple of this.
  static let block = 256

  package let key: SymmetricKey
  /// The key of streamed contents (`streams` subkey).
  let streamKey: SymmetricKey
  let vaultID: VaultID

  package init(vaultID: VaultID, masterKey: SymmetricKey) {
    self.vaultID = vaultID
    self.key = masterKey.derive(.records)
    self.streamKey = masterKey.derive(.streams)
  }

  package static func u64(_ value: UInt64) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
  }

  /// `"vault.record.v2" || vault id || record id || u8(kind) || u64be(revision)`.
  func recordAD(recordID: [UInt8], kind: RecordKind, revision: Int64) -> [UInt8] {
    DomainLabel.record.bytes + vaultID.bytes + recordID + [UInt8(kind.rawValue)]
      + Self.u64(UInt64(bitPattern: revision))
  }

  /// The associated data of chunk `i`: with a content id (written since release 0.5.0)
  /// `"vault.chunk.v3" || vault id || record id || content id || u64be(revision) || u32be(i) ||
  /// u8(final)`; without, `"vault.chunk.v2" || vault id || record id || u64be(revision) ||
  /// u32be(i) || u8(final)`.
  package func chunkAD(
    recordID: [UInt8], revision: Int64, index: Int, final: Bool, contentID: [UInt8]? = nil
  ) -> [UInt8] {
    let place = Self.u64(UInt64(bitPattern: revision)) + Bytes.u32(index) + [final ? 1 : 0]
    guard let contentID else { return DomainLabel.chunk.bytes + vaultID.bytes + recordID + place }
    return DomainLabel.chunkV3.bytes + vaultID.bytes + recordID + contentID + place
  }

  /// `"vault.stream.v2" || vault id || record id || content id || u64be(revision) || u32be(i)`:
  /// message `i` of the stream of content revision `revision`.
  func streamAD(recordID: [UInt8], revision: Int64, index: Int, contentID: [UInt8]) -> [UInt8] {
    DomainLabel.stream.bytes + vaultID.bytes + recordID + contentID
      + Self.u64(UInt64(bitPattern: revision)) + Bytes.u32(index)
  }

  /// The clock of a write: the larger of now (Unix milliseconds shifted left 16 bits) and one
  /// more than the clock of the version it replaces.
  package static func hlc(now: Double, after previous: UInt64?) -> UInt64 {
    let wall = UInt64(max(0, now * 1000)) << 16
    guard let previous, previous < UInt64.max else { return wall }
    return max(wall, previous + 1)
  }

  /// Seals `body` (JSON) as the record `recordID` of `kind` at `revision`, written by
  /// `deviceID` at `hlc`.
  package func seal(
    _ body: [UInt8], recordID: [UInt8], kind: RecordKind, revision: Int64, deviceID: [UInt8],
    hlc: UInt64
  ) -> [UInt8] {
    var plain = deviceID + Self.u64(hlc) + Bytes.u32(body.count) + body
    plain += [UInt8](repeating: 0, count: (Self.block - plain.count % Self.block) % Self.block)
    defer { wipe(&plain) }
    return AEAD.seal(
      plain, key: key, associatedData: recordAD(recordID: recordID, kind: kind, revision: revision))
  }

  /// Opens the box of `row` as a record of `kind`.
  ///
  /// - Throws: `VaultError.integrity` when it does not open (`what` names it), or its layout or
  ///   padding is wrong.
  package func open(
    _ row: RecordRow, kind: RecordKind, what: @autoclosure () -> String, packed: Bool = false
  ) throws -> Opened {
    let plain = try AEAD.open(
      row.box, key: key,
      associatedData: recordAD(recordID: row.recordID, kind: kind, revision: row.revision),
      what: what(), packed: packed)
    return try plain.withBytes { bytes -> Opened in
      let head = 16 + 8 + 4
      guard bytes.count >= head, bytes.count % Self.block == 0 else {
        throw VaultError.integrity(.malformedBox(object: what()))
      }
      let length = bytes[24..<28].reduce(0) { $0 << 8 | Int($1) }
      guard head + length <= bytes.count, bytes[(head + length)...].allSatisfy({ $0 == 0 }) else {
        throw VaultError.integrity(.malformedBox(object: what()))
      }
      let hlc = bytes[16..<24].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return Opened(
        deviceID: Array(bytes[0..<16]), hlc: hlc, plain: plain, bodyRange: head..<head + length)
    }
  }

  /// The chunk rows of `content` for `recordID` at content revision `revision`: padded with
  /// zero bytes to `Padding.paddedLength(content.count)` and cut into `chunkSize` pieces, the
  /// last one final.
  package func sealChunks(
    _ content: SecureBytes, recordID: [UInt8], revision: Int64, chunkSize: Int,
    contentID: [UInt8]?
  ) -> [ChunkRow] {
    let padded = Padding.paddedLength(content.count)
    let count = (padded + chunkSize - 1) / chunkSize
    // No larger than the padded content: a short entry's chunk is one small guarded buffer.
    let piece = SecureBytes(count: min(chunkSize, padded))
    return (0..<count).map { index in
      let start = index * chunkSize
      let size = min(chunkSize, padded - start)
      piece.withMutableBytes { buffer in
        if let base = buffer.baseAddress {
          base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        }
        let copied = max(0, min(size, content.count - start))
        if copied > 0 {
          content.withBytes {
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<start + copied]))
          }
        }
      }
      let box = piece.withBytes {
        AEAD.seal(
          UnsafeRawBufferPointer(rebasing: $0[0..<size]), key: key,
          associatedData: chunkAD(
            recordID: recordID, revision: revision, index: index, final: index == count - 1,
            contentID: contentID))
      }
      return ChunkRow(recordID: recordID, revision: revision, index: Int64(index), box: box)
    }
  }
}
