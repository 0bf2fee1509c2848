import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// Which lockouts this vault's own failed matches made (review of 0.11.0, item 1): only a run
/// of the sensor's whose every failure, from the first, was one of this vault's prompts.
final class BiometricStrikesTests: XCTestCase {
  private func record(_ runs: [FailureRun]) -> BiometricStrikes {
    var strikes = BiometricStrikes()
    for (index, run) in runs.enumerated() {
      strikes.count(.failed, at: 1_700_000_000 + Double(index), run: run)
    }
    return strikes
  }

  private func run(_ name: UInt64, _ failures: Int) -> FailureRun {
    FailureRun(run: name, failures: failures)
  }

  func testFiveOwnFailuresOfOneRunMakeTheLockout() {
    let strikes = record((1...5).map { run(7, $0) })
    XCTAssertEqual(strikes.ownRun, run(7, 5))
    XCTAssertTrue(strikes.madeLockout(run(7, 5)))
  }

  func testAForcedLockoutIsARunOfItsOwn() {
    // Five own failures, the PIN ended their lockout, then `force-lockout` opened run 8.
    let strikes = record((1...5).map { run(7, $0) })
    XCTAssertFalse(strikes.madeLockout(run(8, 5)))
  }

  func testAnotherVaultsFailuresInTheRunSpoilIt() {
    // Three own (1, 2, 3), then two of another vault (4, 5): the count no longer matches.
    XCTAssertFalse(record((1...3).map { run(7, $0) }).madeLockout(run(7, 5)))
    // Two of another vault first (1, 2), then three own (3, 4, 5): never own from the first.
    let late = record((3...5).map { run(7, $0) })
    XCTAssertEqual(late.ownRun, run(7, 0))
    XCTAssertFalse(late.madeLockout(run(7, 5)))
    // Own, another's, then own again up to the count.
    let gap = record([run(7, 1), run(7, 2), run(7, 4), run(7, 5)])
    XCTAssertFalse(gap.madeLockout(run(7, 5)))
  }

  func testAStaleRunOfTheSameLengthIsNotTaken() {
    // Own failures 1 to 3 in run 7; a match elsewhere ended it; another vault failed 3 times in
    // run 8; this vault's next failures are 4 and 5 of run 8.
    let strikes = record((1...3).map { run(7, $0) } + [run(8, 4), run(8, 5)])
    XCTAssertEqual(strikes.ownRun, run(8, 0))
    XCTAssertFalse(strikes.madeLockout(run(8, 5)))
  }

  func testAMatchForgetsTheRunAndNoRunMakesNoLockout() {
    var strikes = record((1...5).map { run(7, $0) })
    strikes.count(.matched, at: 1_700_000_010, run: run(7, 0))
    XCTAssertNil(strikes.ownRun)
    XCTAssertFalse(strikes.madeLockout(run(7, 5)))
    XCTAssertFalse(BiometricStrikes().madeLockout(run(0, 0)))
  }

  func testTheWholeRecordIsDroppedOnlyWhenNothingIsLeft() {
    var state = DeviceState.fresh()
    let id = try! VaultID([UInt8](repeating: 1, count: 16))
    state.countAttempt(.failed, vaultID: id, at: 1_700_000_000, run: run(1, 1))
    XCTAssertEqual(state.biometricStrikes[id.hex]?.ownRun, run(1, 1))
    state.countAttempt(.matched, vaultID: id, at: 1_700_000_001, run: run(1, 0))
    XCTAssertNil(state.biometricStrikes[id.hex])
  }
}
