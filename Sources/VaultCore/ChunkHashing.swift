import Dispatch

/// The row hashes of inserted chunks (`vault(5)` STATE), computed on a second thread while the
/// writer seals and stores the next chunk: hashing a chunk costs about as much as sealing it, and
/// a streamed content has one chunk per 64 KiB.
///
/// The hashes are summed there into their own aggregate, which `total` returns once every
/// queued hash is added; at most `backlog` rows wait, so memory stays bounded.
final class ChunkHashing: @unchecked Sendable {
  /// Chunk rows queued at most (each up to one chunk box).
  static let backlog = 8

  private let queue = DispatchQueue(label: "vault.chunk-hashing")
  private let slots = DispatchSemaphore(value: ChunkHashing.backlog)
  private let hasher: RowHash.Hasher
  /// Touched only on `queue`.
  private var sum = Aggregate.zero

  /// Hashing under the `.rows` subkey `rowKey`.
  init(rowKey: SymmetricKey) {
    hasher = RowHash.Hasher(key: rowKey)
  }

  /// Queues the row hash of `row` to be added.
  func add(_ row: ChunkRow) {
    slots.wait()
    queue.async {
      self.sum.add(self.hasher.hash(table: RowHash.chunks, columns: row.columns))
      self.slots.signal()
    }
  }

  /// The sum of every row hash queued so far, after waiting for the last.
  func total() -> Aggregate {
    queue.sync { sum }
  }
}
