import Glibc
import VaultCrypto

/// A streamed content sealed before its write (`vault(5)` Streamed contents), so that the
/// write's transaction only inserts what is ready: reading a slow pipe never holds the vault's
/// lock, and other commands do not wait for it.
///
/// The chunk boxes go to a file in the vault's folder that is unlinked as soon as it is made,
/// so nothing is left behind however the command ends; it holds only ciphertext, sealed for the
/// record id, content revision and content id the write will use (checked again in the write).
package final class ContentSpool {
  /// The record the chunks are sealed for.
  let recordID: [UInt8]
  /// The content revision they are sealed at.
  let revision: Int64
  /// The content id of the stream.
  let contentID: [UInt8]
  /// The content's length in bytes.
  private(set) var length = 0
  /// The number of chunk boxes.
  private(set) var count = 0

  private let fd: Int32

  private init(fd: Int32, recordID: [UInt8], revision: Int64, contentID: [UInt8]) {
    self.fd = fd
    self.recordID = recordID
    self.revision = revision
    self.contentID = contentID
  }

  deinit { close(fd) }

  /// Seals `prefix`, then what `read` gives until it returns 0, as the stream of content
  /// revision `revision` of `recordID`, into a new unlinked file in `folder`.
  ///
  /// - Throws: `VaultError.storage` when the file cannot be made or written (a full disk);
  ///   what `read` throws; `.invalidInput` for an empty content.
  static func seal(
    prefix: SecureBytes, read: (UnsafeMutableRawBufferPointer) throws -> Int, boxes: RecordBox,
    recordID: [UInt8], revision: Int64, folder: String
  ) throws -> ContentSpool {
    let path = folder + "/.vault-spool-" + SecureRandom.bytes(count: 8).hex
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw VaultError.storage(.spool(.notMade(folder: folder, errno: errno)))
    }
    unlink(path)
    let spool = ContentSpool(
      fd: fd, recordID: recordID, revision: revision, contentID: EntryStore.newContentID())
    // Read and sealed on a second thread while this one writes the file.
    let contentID = spool.contentID
    spool.length = try ChunkPipeline.run(
      produce: { emit in
        try StreamSealer.seal(
          prefix: prefix, read: read, boxes: boxes, recordID: recordID, revision: revision,
          contentID: contentID, emit: emit)
      },
      consume: { try spool.append($0.box) })
    return spool
  }

  private func append(_ box: [UInt8]) throws {
    try writeAll(Bytes.u32(box.count) + box)
    count += 1
  }

  private func writeAll(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let n = write(fd, base + offset, buffer.count - offset)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          throw VaultError.storage(.spool(.notWritten(errno: errno)))
        }
        offset += n
      }
    }
  }

  /// Hands each chunk box to `body` with its index, in order, read back from the file.
  ///
  /// - Throws: `VaultError.storage` when the file cannot be read back; what `body` throws.
  func forEachBox(_ body: (Int, [UInt8]) throws -> Void) throws {
    var offset: off_t = 0
    func readExactly(_ count: Int) throws -> [UInt8] {
      var out = [UInt8](repeating: 0, count: count)
      var done = 0
      while done < count {
        let n = out.withUnsafeMutableBytes { buffer -> Int in
          guard let base = buffer.baseAddress else { return 0 }
          return pread(fd, base + done, count - done, offset + off_t(done))
        }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          throw VaultError.storage(.spool(.notReadBack))
        }
        done += n
      }
      offset += off_t(count)
      return out
    }
    for index in 0..<count {
      let head = try readExactly(4)
      let size = head.reduce(0) { $0 << 8 | Int($1) }
      guard size <= ContentChunks.maximumBoxSize else {
        throw VaultError.storage(.spool(.changed))
      }
      try body(index, try readExactly(size))
    }
  }
}
