import VaultCrypto

/// A content's chunk rows read and written one piece at a time (`vault(5)` RECORDS, Streamed
/// contents), so that no content is ever held whole: at most one piece of `EntryStore.chunkSize`
/// bytes of plaintext is in (guarded) memory.
package struct ContentChunks {
  /// The value of each stored property, in order.
  package init(db: SQLiteDatabase, boxes: RecordBox) {
    self.db = db
    self.boxes = boxes
  }

  let db: SQLiteDatabase
  let boxes: RecordBox

  static var chunkSize: Int { EntryStore.chunkSize }
  /// The longest chunk box a reader fetches.
  ///
  /// A piece, the stream header and the AEAD overhead, with room to spare: a longer one
  /// (planted to exhaust memory) is refused unread.
  package static var maximumBoxSize: Int { chunkSize + 256 }

  /// The number of chunks of a content of `length` bytes.
  static func count(length: Int) -> Int {
    (Padding.paddedLength(length) + chunkSize - 1) / chunkSize
  }

  /// Hands the plaintext of a stored content to `deliver` piece by piece, in order.
  ///
  /// The content of `length` bytes is stored at (`recordID`, `revision`), in the stream layout
  /// when `streamed`; the padding is not handed over. Every chunk is checked before its piece is:
  /// its place, its tag, its length and its zero padding.
  ///
  /// - Throws: `VaultError.integrity` naming the entry `name` (pieces already handed over are
  ///   not the content then); what `deliver` throws.
  package func read(
    recordID: [UInt8], revision: Int64, contentID: [UInt8]?, length: Int, streamed: Bool,
    name: String, deliver: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    func damaged(_ damage: ContentDamage) -> VaultError { .integrity(.content(name: name, damage)) }
    // The object a box that does not open is named by (`CryptoError`).
    let what = "the content of '\(name)'"
    guard !streamed || contentID != nil else { throw damaged(.streamWithoutContentID) }
    let padded = Padding.paddedLength(length)
    let count = Self.count(length: length)
    let stored = try db.query(
      "SELECT count(*) FROM chunks WHERE record_id = ? AND revision = ?",
      [.blob(recordID), .integer(revision)]
    ).first?.first?.integer
    guard stored == Int64(count) else {
      throw damaged(.missingOrExtraChunks)
    }
    // One chunk at a time by its key, so that a caller may write to `chunks` between pieces.
    let select = try db.prepare(
      "SELECT box FROM chunks WHERE record_id = ? AND revision = ? AND idx = ?"
        + " AND length(box) <= \(Self.maximumBoxSize)")
    let piece = SecureBytes(count: Self.chunkSize)
    var stream: SecretStream?
    for index in 0..<count {
      guard
        let box = try select.first([.blob(recordID), .integer(revision), .integer(Int64(index))])?
          .first?.blob
      else { throw damaged(.missingOrOversizedChunk) }
      let size = min(Self.chunkSize, padded - index * Self.chunkSize)
      let final = index == count - 1
      let opened: Int
      if streamed {
        var message = box[...]
        if index == 0 {
          stream = try SecretStream.pulling(
            key: boxes.streamKey, header: Array(box.prefix(SecretStream.headerByteCount)),
            what: what)
          message = box.dropFirst(SecretStream.headerByteCount)
        }
        guard let stream else { throw damaged(.noStreamHeader) }
        let ad = boxes.streamAD(
          recordID: recordID, revision: revision, index: index, contentID: contentID ?? [])
        let (pulled, tag) = try message.withUnsafeBytes {
          try stream.pull($0, associatedData: ad, into: piece, what: what)
        }
        guard tag == (final ? SecretStream.finalTag : SecretStream.messageTag) else {
          throw damaged(.cutShortOrRunsPastEnd)
        }
        opened = pulled
      } else {
        let plain = try AEAD.open(
          box, key: boxes.key,
          associatedData: boxes.chunkAD(
            recordID: recordID, revision: revision, index: index, final: final,
            contentID: contentID),
          what: what)
        guard plain.count <= piece.count else {
          throw damaged(.wrongChunkLength)
        }
        piece.write(plain)
        opened = plain.count
      }
      guard opened == size else {
        throw damaged(.wrongChunkLength)
      }
      let kept = max(0, min(size, length - index * Self.chunkSize))
      let zeros = piece.withBytes { $0[kept..<size].allSatisfy { $0 == 0 } }
      guard zeros else { throw damaged(.nonzeroPadding) }
      if kept > 0 {
        try piece.withBytes { try deliver(UnsafeRawBufferPointer(rebasing: $0[..<kept])) }
      }
    }
  }
}

/// Seals a content as one `crypto_secretstream_xchacha20poly1305` stream of chunk rows as its
/// bytes arrive (`vault(5)` Streamed contents): one piece is held back so that the last can be
/// tagged final, and the zero padding to `Padding.paddedLength` follows the content.
package final class StreamSealer {
  private let boxes: RecordBox
  private let recordID: [UInt8]
  private let revision: Int64
  private let contentID: [UInt8]
  private let emit: (ChunkRow) throws -> Void
  private let stream: SecretStream
  private var header: [UInt8]?
  private let piece = PieceBuffer(size: ContentChunks.chunkSize)
  private var index = 0
  /// The content bytes appended so far.
  private(set) var length = 0

  /// A stream for content revision `revision` of `recordID`, whose entry body names it by
  /// `contentID`, each chunk row handed to `emit`.
  package init(
    boxes: RecordBox, recordID: [UInt8], revision: Int64, contentID: [UInt8],
    emit: @escaping (ChunkRow) throws -> Void
  ) {
    self.boxes = boxes
    self.recordID = recordID
    self.revision = revision
    self.contentID = contentID
    self.emit = emit
    (stream, header) = SecretStream.pushing(key: boxes.streamKey)
  }

  /// Seals `prefix`, then what `read` puts into the buffer it is given until it returns 0, as
  /// the stream of content revision `revision` of `recordID` named by `contentID`, each chunk
  /// row handed to `emit`.
  ///
  /// - Returns: the content's length.
  /// - Throws: what `read` and `emit` throw; `VaultError.invalidInput` for an empty content.
  static func seal(
    prefix: SecureBytes, read: (UnsafeMutableRawBufferPointer) throws -> Int, boxes: RecordBox,
    recordID: [UInt8], revision: Int64, contentID: [UInt8], emit: (ChunkRow) throws -> Void
  ) throws -> Int {
    try withoutActuallyEscaping(emit) { emit in
      let sealer = StreamSealer(
        boxes: boxes, recordID: recordID, revision: revision, contentID: contentID, emit: emit)
      try prefix.withBytes { try sealer.append($0) }
      let buffer = SecureBytes(count: ContentChunks.chunkSize)
      while true {
        let n = try buffer.withMutableBytes { try read($0) }
        guard n > 0 else { break }
        try buffer.withBytes { try sealer.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
      }
      return try sealer.finish()
    }
  }

  /// Appends content bytes, sealing every piece that more bytes follow.
  ///
  /// - Throws: what `emit` throws.
  package func append(_ bytes: UnsafeRawBufferPointer) throws {
    try piece.append(bytes) { try seal($0, final: false) }
    length += bytes.count
  }

  /// Appends the zero padding and seals the last piece, tagged final.
  ///
  /// - Returns: the content's length.
  /// - Throws: `VaultError.invalidInput` for an empty content; what `emit` throws.
  package func finish() throws -> Int {
    guard length > 0 else { throw VaultError.invalidInput(.emptyContent) }
    try piece.appendZeros(Padding.paddedLength(length) - length) { try seal($0, final: false) }
    try piece.flush { try seal($0, final: true) }
    return length
  }

  private func seal(_ plaintext: UnsafeRawBufferPointer, final: Bool) throws {
    let ad = boxes.streamAD(
      recordID: recordID, revision: revision, index: index, contentID: contentID)
    let message = stream.push(plaintext, associatedData: ad, final: final)
    let box = header.map { $0 + message } ?? message
    header = nil
    try emit(ChunkRow(recordID: recordID, revision: revision, index: Int64(index), box: box))
    index += 1
  }
}
