import VaultFormat
import VaultSync
import XCTest

@testable import VaultCLI

/// The words the command line gives the device that signed a rotation's newest link: its hex
/// id, cut to 8 digits, or `?` when the link names none, as users saw them when the core
/// composed "by device …".
final class SyncSignerWordsTests: XCTestCase {
  func testBothRotatedNamesTheSigner() {
    let cases: [(String?, String)] = [
      ("5a31f55c0b1d2e3f4a5b6c7d8e9f0a1b", "by device 5a31f55c"),
      (nil, "by device ?"),
    ]
    for (signer, by) in cases {
      let report = ExitStatus.report(.conflict(.bothRotated(signer: signer)))
      XCTAssertEqual(report.code, .vaultChanged)
      XCTAssertEqual(
        report.message,
        "this device and another (\(by)) both rotated the vault's master key since the last"
          + " sync; nothing was changed")
      XCTAssertNil(report.hint)
    }
  }

  func testALostRevocationNamesTheSigner() {
    XCTAssertEqual(
      SyncWords.line(
        .revocationLost(device: "30beeff5", signer: "5a31f55c0b1d2e3f4a5b6c7d8e9f0a1b")),
      "vault: note: the revocation of device 30beeff5 made here before the rotation by device"
        + " 5a31f55c did not reach the vault: revoke it again ('vault sync revoke 30beeff5')")
    XCTAssertEqual(
      SyncWords.line(.revocationLost(device: "30beeff5", signer: nil)),
      "vault: note: the revocation of device 30beeff5 made here before the rotation by device ?"
        + " did not reach the vault: revoke it again ('vault sync revoke 30beeff5')")
  }
}
