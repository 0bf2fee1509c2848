import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets
import VaultSync
import VaultTransfer
import XCTest

@testable import VaultCLI

/// The words the command line gives the facts of the simulated sensor's codes and the command line's own refusals of a prompt: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class SensorWordsTests: XCTestCase {
  func testWhatTheSensorsCodesMean() {
    let cases: [(VaultError, ExitCode, String)] = [
      (
        .biometricCancelled(SensorCode(words: "user cancel", raw: -2)), .cancelled,
        "user cancel (LAError -2): the biometric prompt was cancelled"
      ),
      (
        .biometricCancelled(SensorCode(words: "system cancel", raw: -4)), .cancelled,
        "system cancel (LAError -4): the system interrupted the biometric prompt"
      ),
      (
        .biometricCancelled(SensorCode(words: "app cancel", raw: -9)), .cancelled,
        "app cancel (LAError -9): the prompt was ended by vault, or timed out waiting for the"
          + " sensor"
      ),
      (
        .biometricCancelled(SensorCode(words: "invalid context", raw: -10)), .cancelled,
        "invalid context (LAError -10): the authentication context was reused"
      ),
      (
        .biometryUnavailable(SensorCode(words: "biometry not available", raw: -6)),
        .biometryUnavailable,
        "biometry not available (LAError -6): no biometric sensor is available (simulated)"
      ),
      (
        .biometryUnavailable(SensorCode(words: "biometry not paired", raw: -12)),
        .biometryUnavailable,
        "biometry not paired (LAError -12): no biometric accessory is paired (simulated)"
      ),
      (
        .biometryUnavailable(SensorCode(words: "biometry disconnected", raw: -13)),
        .biometryUnavailable,
        "biometry disconnected (LAError -13): the biometric sensor is disconnected (simulated)"
      ),
      (
        .sensorScript(.fallbackNotShown), .usage,
        "simulated sensor script: the queued answer 'fallback' cannot answer this prompt: the"
          + " fallback button shows only after a failed match (Touch ID one, Face ID and Optic ID"
          + " two); it was dropped"
      ),
    ]
    for (error, code, line) in cases {
      let report = ExitStatus.report(error)
      XCTAssertEqual(report.message, line)
      XCTAssertEqual(report.code, code)
      XCTAssertNil(report.hint)
    }
    XCTAssertEqual(Cancelled(why: "no input").message, "cancelled: no input")
    XCTAssertEqual(Cancelled(why: "no input").exitCode, .cancelled)
    XCTAssertEqual(
      BiometryAlreadyOff().message, "biometric unlock is already off for this vault")
    XCTAssertEqual(BiometryAlreadyOff().exitCode, .biometryUnavailable)
  }
}
