import Dispatch
import Synchronization

/// Seals a streamed content on a second thread while the calling thread stores its chunk rows,
/// so that reading and sealing the next pieces overlaps with writing the last ones (`vault(5)`
/// Streamed contents): on two cores a large `add` takes about the longer of the two, not their
/// sum.
///
/// At most `depth` sealed rows (ciphertext only) wait between the threads, so memory stays
/// bounded; the plaintext never leaves the sealing thread's guarded piece buffer.
enum ChunkPipeline {
  /// Sealed rows waiting at most.
  static let depth = 8

  /// Runs `produce` on a second thread, which hands each row to the `emit` it is given, and
  /// `consume` on the calling thread for each of those rows in order.
  ///
  /// When `consume` throws, `emit` throws `Stopped` at the sealing thread's next row; either
  /// way this returns only after `produce` has returned, so nothing `produce` uses outlives
  /// the call.
  ///
  /// - Returns: what `produce` returns (the content's length).
  /// - Throws: the first of what `consume` throws and what `produce` throws.
  static func run(
    produce: (_ emit: (ChunkRow) throws -> Void) throws -> Int,
    consume: (ChunkRow) throws -> Void
  ) throws -> Int {
    let channel = Channel()
    // The sealing thread runs only while this call waits for it, below. It reaches `produce`
    // through `work`, which this thread empties once it is done: the block Dispatch keeps a
    // moment longer holds no reference to the closure, which must not outlive this call.
    try withoutActuallyEscaping(produce) { produce in
      let work = Work(produce)
      DispatchQueue.global(qos: .userInitiated).async {
        channel.finish(work.run { try channel.send($0) })
      }
      defer {
        channel.waitForProducer()
        work.clear()
      }
      do {
        while let row = try channel.receive() { try consume(row) }
      } catch {
        channel.stop()
        throw error
      }
    }
    return try channel.outcome()
  }

  /// The closure the sealing thread runs, held only until the calling thread clears it.
  private final class Work: @unchecked Sendable {
    private var produce: ((_ emit: (ChunkRow) throws -> Void) throws -> Int)?

    init(_ produce: @escaping (_ emit: (ChunkRow) throws -> Void) throws -> Int) {
      self.produce = produce
    }

    /// Runs it once; its outcome (the content's length or what it threw).
    func run(_ emit: (ChunkRow) throws -> Void) -> Result<Int, any Error> {
      guard let produce else { return .failure(Stopped()) }
      return Result { try produce(emit) }
    }

    func clear() { produce = nil }
  }

  /// Thrown by `emit` once the storing side has stopped.
  struct Stopped: Error {}

  /// The rows between the two threads: counted by two semaphores, held under a mutex.
  private final class Channel: @unchecked Sendable {
    private struct State {
      var rows: [ChunkRow] = []
      var head = 0
      var outcome: Result<Int, any Error>?
      var stopped = false
    }

    private let state = Mutex(State())
    /// Signalled for every row sent and once when the producer finishes.
    private let items = DispatchSemaphore(value: 0)
    /// Free places for rows.
    ///
    /// Made empty and then given them: libdispatch stops the process
    /// when a semaphore is released below the value it was made with, as this one is when the
    /// storing side stops early.
    private let slots = DispatchSemaphore(value: 0)
    /// Signalled once when the producer has returned.
    private let done = DispatchSemaphore(value: 0)

    init() {
      for _ in 0..<ChunkPipeline.depth { slots.signal() }
    }

    func send(_ row: ChunkRow) throws {
      slots.wait()
      let stopped = state.withLock { state in
        if !state.stopped { state.rows.append(row) }
        return state.stopped
      }
      if stopped { throw Stopped() }
      items.signal()
    }

    func finish(_ outcome: Result<Int, any Error>) {
      state.withLock { $0.outcome = outcome }
      items.signal()
      done.signal()
    }

    /// The next row, or nil once the producer has finished and every row was taken.
    func receive() throws -> ChunkRow? {
      items.wait()
      let row = state.withLock { state -> ChunkRow? in
        guard state.head < state.rows.count else { return nil }
        let row = state.rows[state.head]
        state.head += 1
        if state.head == state.rows.count {
          state.rows.removeAll(keepingCapacity: true)
          state.head = 0
        }
        return row
      }
      if row != nil { slots.signal() }
      return row
    }

    /// Stops the producer at its next row (it may be waiting for a free place).
    func stop() {
      state.withLock { $0.stopped = true }
      slots.signal()
    }

    func waitForProducer() { done.wait() }

    func outcome() throws -> Int {
      guard let outcome = state.withLock({ $0.outcome }) else { throw Stopped() }
      return try outcome.get()
    }
  }
}
