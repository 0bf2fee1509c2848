import FoundationEssentials
import VaultCrypto
import VaultFormat

/// The files of a sync repository (`vault(5)` SYNC REPOSITORY): their opaque names, their
/// sealing under the `sync` subkey and their keyed hashes under the `syncIndex` subkey.
///
/// A record file is one row of `records` exactly as stored, sealed with its path in the
/// associated data; a content file is the boxes of one content's `chunks` rows, behind a sealed
/// head that names their place. Nothing in a path or a file shows a name, a content, a length
/// beyond the padding, or a time.
public struct SyncFiles {
  /// The folder of record files.
  public static let recordsFolder = "records"
  /// The folder of content files.
  public static let contentsFolder = "contents"
  /// The state file's path.
  public static let statePath = "state"
  /// The attributes file's path, and its one line: git never diffs, merges or converts a file.
  public static let attributes = (path: ".gitattributes", text: "* binary\n")

  let vaultID: VaultID
  let sealKey: SymmetricKey
  let indexKey: SymmetricKey

  /// The codec of `vaultID`'s files under `masterKey`'s subkeys.
  public init(vaultID: VaultID, masterKey: SymmetricKey) {
    self.vaultID = vaultID
    sealKey = masterKey.derive(.sync)
    indexKey = masterKey.derive(.syncIndex)
  }

  private func name(_ parts: [[UInt8]]) -> [UInt8] {
    GenericHash.keyed(
      key: indexKey.bytes, parts: [DomainLabel.syncName.bytes] + parts, outputLength: 16)
  }

  /// `records/BB/NAME`: the record's bucket in two hex digits and 32 hex digits of its id's
  /// keyed hash.
  func recordPath(_ row: RecordRow) -> String {
    Self.recordsFolder + "/" + [UInt8(row.bucket)].hex + "/" + recordName(row.recordID)
  }

  /// The 32 hex digits that name the file of record `recordID` in every folder.
  func recordName(_ recordID: [UInt8]) -> String {
    name([Array("r".utf8), recordID]).hex
  }

  /// `contents/HH/NAME` of the content of `recordID` at content revision `revision` written
  /// with `contentID` (nil: sixteen zero bytes).
  func contentPath(recordID: [UInt8], revision: Int64, contentID: [UInt8]?) -> String {
    let named = name([
      Array("c".utf8), recordID, RecordBox.u64(UInt64(bitPattern: revision)),
      contentID ?? [UInt8](repeating: 0, count: 16),
    ])
    return Self.contentsFolder + "/" + [named[0]].hex + "/" + named.hex
  }

  /// The keyed hash of a file: `BLAKE2b-32(syncIndex, label || u32be(length of path) || path ||
  /// bytes)`, which the files aggregate sums.
  public func hash(path: String, bytes: [UInt8]) -> [UInt8] {
    let path = Array(path.utf8)
    return GenericHash.keyed(
      key: indexKey.bytes, parts: [DomainLabel.syncHash.bytes, Bytes.u32(path.count), path, bytes])
  }

  private func associatedData(_ label: DomainLabel, path: String) -> [UInt8] {
    label.bytes + vaultID.bytes + Array(path.utf8)
  }

  /// The file of `row`: its path and its sealed bytes.
  func sealRecord(_ row: RecordRow) -> (path: String, bytes: [UInt8]) {
    let path = recordPath(row)
    var plain = row.recordID + (row.lookup.map { [1] + $0 } ?? [0]) + [UInt8(row.kind)]
    plain += RecordBox.u64(UInt64(bitPattern: row.revision)) + row.box
    defer { wipe(&plain) }
    return (
      path,
      AEAD.seal(
        plain, key: sealKey, associatedData: associatedData(DomainLabel.syncRecord, path: path))
    )
  }

  /// The row a record file at `path` holds.
  ///
  /// - Throws: `VaultError.integrity` when it does not open, is malformed, is a sync record or
  ///   of no kind, or is not at the path its record id and bucket give.
  func openRecord(path: String, bytes: [UInt8]) throws -> RecordRow {
    let what = "the sync file \(path)"
    let plain = try AEAD.open(
      bytes, key: sealKey, associatedData: associatedData(DomainLabel.syncRecord, path: path),
      what: what)
    let row = try plain.withBytes { raw -> RecordRow in
      let bytes = Array(raw)
      guard bytes.count >= 16 + 1 + 1 + 8 else {
        throw VaultError.integrity(.syncFile(path: path, .malformed))
      }
      let recordID = Array(bytes[0..<16])
      var at = 16
      var lookup: [UInt8]?
      switch bytes[at] {
      case 0: at += 1
      case 1 where bytes.count >= at + 1 + 32 + 1 + 8:
        lookup = Array(bytes[(at + 1)..<(at + 33)])
        at += 33
      default: throw VaultError.integrity(.syncFile(path: path, .malformed))
      }
      let kind = Int64(bytes[at])
      let revision = bytes[(at + 1)..<(at + 9)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
      let box = Array(bytes[(at + 9)...])
      guard revision >= 1, !box.isEmpty else {
        throw VaultError.integrity(.syncFile(path: path, .malformed))
      }
      return RecordRow(recordID: recordID, lookup: lookup, kind: kind, revision: revision, box: box)
    }
    guard let kind = RecordKind(rawValue: row.kind), kind != .sync else {
      throw VaultError.integrity(.syncFile(path: path, .unsyncedKind(row.kind)))
    }
    guard recordPath(row) == path else {
      throw VaultError.integrity(.syncFile(path: path, .anotherRecord))
    }
    return row
  }

  /// One content as a content file holds it: its place and its chunk boxes, exactly as stored.
  struct Content: Equatable {
    var recordID: [UInt8]
    var contentID: [UInt8]?
    var revision: Int64
    var boxes: [[UInt8]]
  }

  /// The bytes of the content file at `path`.
  func sealContent(_ content: Content, path: String) -> [UInt8] {
    var head = content.recordID + (content.contentID ?? [UInt8](repeating: 0, count: 16))
    head += RecordBox.u64(UInt64(bitPattern: content.revision))
    head += Bytes.u32(content.boxes.count)
    for box in content.boxes { head += Bytes.u32(box.count) }
    let sealed = AEAD.seal(
      head, key: sealKey, associatedData: associatedData(DomainLabel.syncContent, path: path))
    var out = Bytes.u32(sealed.count) + sealed
    for box in content.boxes { out += box }
    return out
  }

  /// The content a content file at `path` holds.
  ///
  /// - Throws: `VaultError.integrity` when its head does not open or its boxes do not add up to
  ///   its length.
  func openContent(path: String, bytes: [UInt8]) throws -> Content {
    let what = "the sync file \(path)"
    guard bytes.count >= 4 else { throw VaultError.integrity(.syncFile(path: path, .truncated)) }
    let length = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
    guard bytes.count >= 4 + length else {
      throw VaultError.integrity(.syncFile(path: path, .truncated))
    }
    let head = try AEAD.open(
      Array(bytes[4..<(4 + length)]), key: sealKey,
      associatedData: associatedData(DomainLabel.syncContent, path: path), what: what
    ).unprotectedBytes
    let fixed = 16 + 16 + 8 + 4
    guard head.count >= fixed else { throw VaultError.integrity(.syncFile(path: path, .malformed)) }
    let recordID = Array(head[0..<16])
    let zero = head[16..<32].allSatisfy { $0 == 0 }
    let contentID = zero ? nil : Array(head[16..<32])
    let revision = head[32..<40].reduce(Int64(0)) { $0 << 8 | Int64($1) }
    let count = head[40..<44].reduce(0) { $0 << 8 | Int($1) }
    guard revision >= 1, count >= 1, head.count == fixed + 4 * count,
      contentPath(recordID: recordID, revision: revision, contentID: contentID) == path
    else { throw VaultError.integrity(.syncFile(path: path, .malformed)) }
    var boxes: [[UInt8]] = []
    var at = 4 + length
    for index in 0..<count {
      let start = fixed + 4 * index
      let size = head[start..<(start + 4)].reduce(0) { $0 << 8 | Int($1) }
      guard size >= 1, at + size <= bytes.count else {
        throw VaultError.integrity(.syncFile(path: path, .truncated))
      }
      boxes.append(Array(bytes[at..<(at + size)]))
      at += size
    }
    guard at == bytes.count else { throw VaultError.integrity(.syncFile(path: path, .malformed)) }
    return Content(recordID: recordID, contentID: contentID, revision: revision, boxes: boxes)
  }
}
