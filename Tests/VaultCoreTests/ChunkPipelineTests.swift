import Synchronization
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// `ChunkPipeline`: rows arrive in order, at most `depth` ahead, and a failure on either side
/// ends the call with that failure after the sealing thread has returned.
final class ChunkPipelineTests: XCTestCase {
  func row(_ index: Int) -> ChunkRow {
    ChunkRow(recordID: [1], revision: 1, index: Int64(index), box: [UInt8(index & 0xff)])
  }

  struct Failed: Error, Equatable { let side: String }

  func testRowsArriveInOrderAndTheLengthComesBack() throws {
    var seen: [Int64] = []
    let length = try ChunkPipeline.run(
      produce: { emit in
        for index in 0..<1000 { try emit(row(index)) }
        return 12345
      },
      consume: { seen.append($0.index) })
    XCTAssertEqual(length, 12345)
    XCTAssertEqual(seen, (0..<1000).map(Int64.init))
  }

  func testTheSealingThreadStaysAtMostDepthRowsAhead() throws {
    let sent = Atomic<Int>(0)
    var ahead = 0
    _ = try ChunkPipeline.run(
      produce: { emit in
        for index in 0..<200 {
          try emit(row(index))
          sent.add(1, ordering: .sequentiallyConsistent)
        }
        return 0
      },
      consume: { row in
        usleep(200)
        ahead = max(
          ahead, sent.load(ordering: .sequentiallyConsistent) - Int(row.index) - 1)
      })
    XCTAssertLessThanOrEqual(ahead, ChunkPipeline.depth + 1)
    XCTAssertGreaterThan(ahead, 0, "the two sides overlapped")
  }

  func testAStoreFailureStopsTheSealingThreadAndIsThrown() {
    let sent = Atomic<Int>(0)
    XCTAssertThrowsError(
      try ChunkPipeline.run(
        produce: { emit in
          for index in 0..<100_000 {
            try emit(row(index))
            sent.add(1, ordering: .sequentiallyConsistent)
          }
          return 0
        },
        consume: { if $0.index == 10 { throw Failed(side: "store") } })
    ) { XCTAssertEqual($0 as? Failed, Failed(side: "store")) }
    // It stopped at once: no more than the rows that fit between the threads were sealed.
    XCTAssertLessThanOrEqual(
      sent.load(ordering: .sequentiallyConsistent), 11 + ChunkPipeline.depth + 1)
  }

  func testASealingFailureIsThrownAfterTheRowsBeforeIt() {
    var seen = 0
    XCTAssertThrowsError(
      try ChunkPipeline.run(
        produce: { emit in
          for index in 0..<5 { try emit(row(index)) }
          throw Failed(side: "seal")
        },
        consume: { _ in seen += 1 })
    ) { XCTAssertEqual($0 as? Failed, Failed(side: "seal")) }
    XCTAssertEqual(seen, 5)
  }

  /// Many short runs: the closure handed to the sealing thread never outlives a call (the
  /// runtime stops the process when a `withoutActuallyEscaping` closure escapes).
  func testManyShortRunsEndCleanly() throws {
    for round in 0..<3000 {
      let count = round % 3
      var seen = 0
      let length = try ChunkPipeline.run(
        produce: { emit in
          for index in 0..<count { try emit(row(index)) }
          return count
        },
        consume: { _ in seen += 1 })
      XCTAssertEqual(length, count)
      XCTAssertEqual(seen, count)
    }
  }
}
