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

/// The words the command line gives the facts of a malformed vault header: which field, why: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class HeaderWordsTests: XCTestCase {
  func testWhyTheHeaderIsMalformed() {
    let cases: [(HeaderFault, String)] = [
      (.body(.missing), "the vault has no header"),
      (.body(.tooLarge), "the header is larger than 64 KiB"),
      (.body(.notAJSONObject), "the header is not a JSON object"),
      (.body(.noFormatVersion), "the header has no format version"),
      (.body(.fieldsNotValid), "the header fields are not valid"),
      (.unknownField(.header, name: "x"), "unknown header field 'x'"),
      (.unknownField(.rotation, name: "x"), "unknown rotation field 'x'"),
      (.unknownField(.handoff, name: "extra"), "unknown handoff field 'extra'"),
      (.unknownField(.revocation, name: "x"), "unknown revocation field 'x'"),
      (.unknownField(.retiredWriter, name: "x"), "unknown retired writer field 'x'"),
      (.unknownField(.deviceRecord, name: "extra"), "unknown device record field 'extra'"),
      (.unknownField(.biometry, name: "x"), "unknown biometry field 'x'"),
      (.unknownField(.recoverySlot, name: "pin"), "unknown recovery slot field 'pin'"),
      (.unknownPolicy("none"), "unknown policy 'none'"),
      (.unknownBiometryState("on"), "unknown biometry state 'on'"),
      (.vaultIDLength(found: 15), "a vault id is 16 bytes, not 15"),
      (.deviceRecords(.count(maximum: 64)), "the header needs 1 to 64 device records"),
      (.deviceRecords(.sharedIDOrTag), "two device records share an id or a tag"),
      (
        .deviceRecords(.enrolledWithoutKey),
        "a device record is enrolled in a header with no enrollment key"
      ),
      (.deviceRecords(.notEnrolled), "a device record is not enrolled"),
      (
        .deviceRecords(.enrollmentSerialOutOfBounds(0)),
        "enrollment_serial 0 is out of bounds"
      ),
      (.deviceRecords(.activeBiometryWithoutSeal), "an active biometry record has no seal"),
      (.lists(.rotationsOutOfOrder), "the header's rotations are out of order or bounds"),
      (.lists(.tooManyHandoffs(maximum: 16)), "the header holds more than 16 handoffs"),
      (
        .lists(.revokedDevicesInvalid(maximum: 256)),
        "the header's revoked_devices repeat an id, name a device it holds, or exceed 256"
      ),
      (
        .lists(.revocationsNotOnePerDevice),
        "the header's revocations are not one for each revoked device of an enrolled header"
      ),
      (.lists(.revocationMissing), "a revoked device of an enrolled header has no revocation"),
      (
        .lists(.tooManyRetiredWriters(maximum: 256)),
        "the header holds more than 256 retired writer keys"
      ),
      (.keyslots(.formatOneSlots), "the header needs one pin and one recovery keyslot"),
      (.keyslots(.noPINSlot), "no PIN slot"),
      (.keyslots(.noRecoverySlot), "no recovery slot"),
      (.keyslots(.verifierWithoutTag), "the recovery slot has a verifier without a tag"),
      (.kdf(.saltLength(expected: 16, found: 15)), "a salt is 16 bytes, not 15"),
      (
        .kdf(.outOfBounds(parameter: "opslimit", value: 17)),
        "Argon2id opslimit 17 is out of bounds"
      ),
      (
        .kdf(.outOfBounds(parameter: "memlimit", value: 8_589_934_592)),
        "Argon2id memlimit 8589934592 is out of bounds"
      ),
      (
        .kdf(.profileMismatch(profile: "moderate")),
        "Argon2id profile 'moderate' does not match its values"
      ),
    ]
    for (fault, words) in cases {
      let report = ExitStatus.report(.malformedHeader(fault))
      XCTAssertEqual(report.code, .integrity)
      XCTAssertEqual(report.message, "the vault header is malformed: " + words)
      XCTAssertNil(report.hint)
      XCTAssertEqual(
        SyncError.refused(.damaged(.malformedHeader(fault))).message,
        "the sync remote was refused: the vault header it carries is malformed: \(words);"
          + " nothing was merged")
    }
  }

  func testAMalformedBase64FieldOfTheHeader() {
    for field in [
      "revoked_devices", "revocations", "handoffs", "enrollment", "sealed domain state",
    ] {
      let report = ExitStatus.report(.malformedHeader(.invalidBase64(field: field)))
      XCTAssertEqual(report.code, .integrity)
      XCTAssertEqual(report.message, "the vault header is malformed: \(field) is not valid")
      XCTAssertNil(report.hint)
    }
  }
}
