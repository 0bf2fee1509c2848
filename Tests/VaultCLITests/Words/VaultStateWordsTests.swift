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

/// The words the command line gives the facts of the vault as a command finds it: changed, locked, taken first, a path others could use: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class VaultStateWordsTests: XCTestCase {
  func testWhatChangedInTheVaultWhileACommandRan() {
    let cases: [(VaultChange, String)] = [
      (.headerChangedFirst, "another command changed its header first"),
      (.headerChangedWhilePINAsked, "its header changed while the PIN was asked for"),
      (.headerChangedSincePINChecked, "its header changed since the PIN was checked"),
      (
        .masterKeyReplaced,
        "its master key was replaced by another command (a 'vault rekey') or the file was"
          + " replaced; nothing was written"
      ),
      (
        .journalKeyReplaced,
        "its journal key was replaced while the entry was being written; nothing was written"
      ),
      (.anotherSync, "another sync of this vault ran meanwhile"),
      (
        .guardedDuringExport(name: "bank\u{202E}"),
        "'bank?' was added or guarded while the export began"
      ),
    ]
    for (change, words) in cases {
      let report = ExitStatus.report(.vaultChanged(change))
      XCTAssertEqual(report.code, .vaultChanged)
      XCTAssertEqual(
        report.message, "the vault changed while the command ran: \(words); run it again")
      XCTAssertNil(report.hint)
    }
    XCTAssertEqual(
      EditNotSaved(change: .masterKeyReplaced).message,
      "the vault changed while the command ran: its master key was replaced by another command (a"
        + " 'vault rekey') or the file was replaced; nothing was written; your edit was not saved"
        + " (edit again); run it again")
  }

  func testWhyTheVaultIsLocked() {
    let cases: [(LockReason, String)] = [
      (.noDeviceRecord, "this device has no record in the vault's header"),
      (.malformedSessionToken, "the session token is malformed"),
      (
        .sessionEnded,
        "the session in VAULT_SESSION has ended (its time ran out, the vault was let go, or the"
          + " unlock agent stopped); unlock again"
      ),
      (
        .sessionFromOlderRelease,
        "the session was issued by an older release of vault; unlock again"
      ),
      (.sessionOfAnotherVault, "the session in VAULT_SESSION is for another vault, not this one"),
      (.sessionsRevoked(.lock, noTerminal: false), "the vault was locked with 'vault lock'"),
      (
        .sessionsRevoked(.pinChange, noTerminal: true),
        "every session was revoked when the PIN was changed, and there is no terminal to ask on"
      ),
      (
        .sessionsRevoked(.biometricChange, noTerminal: false),
        "every session was revoked when the biometric enrollment changed (or biometric unlock was"
          + " re-activated)"
      ),
      (
        .sessionsRevoked(.rotation, noTerminal: false),
        "every session was revoked when the master key was rotated"
      ),
      (
        .sessionsRevoked(.biometryOff, noTerminal: false),
        "every session was revoked when biometric unlock was turned off"
      ),
      (.noSessionNoTerminal, "no valid session and no terminal to ask on"),
      (
        .agentVaultReplaced(path: "/v.db"),
        "the file at /v.db is no longer the vault the agent was unlocked for"
      ),
      (
        .agentKeyRotated,
        "the agent held a master key that does not open this vault (it was rotated, or the key"
          + " handed to the agent was not this vault's)"
      ),
      (
        .newKeyPairNeedsRecovery,
        "this device's key pair did not open with its PIN, or its writer key is lost, and a new"
          + " one needs the recovery code: run 'vault recover'"
      ),
      (.noTerminalToRead(.secret), "no terminal to read the secret from"),
      (.noTerminalToRead(.fieldValue), "no terminal to read the value from"),
      (.noTerminalToRead(.oneTimeCode), "no terminal to read the one-time code from"),
    ]
    for (reason, words) in cases {
      let report = ExitStatus.report(.locked(reason))
      XCTAssertEqual(report.code, .locked)
      XCTAssertEqual(report.message, "locked: " + words)
      switch reason {
      case .malformedSessionToken, .sessionEnded, .sessionFromOlderRelease:
        XCTAssertEqual(
          report.hint, "start a new session with: eval \"$(vault unlock --shell-session)\"",
          "\(reason)")
      case .sessionOfAnotherVault:
        XCTAssertEqual(
          report.hint,
          "run 'unset VAULT_SESSION' to use this vault without it, or start a session for it"
            + " with: eval \"$(vault unlock --shell-session)\"")
      default:
        XCTAssertEqual(report.hint, "unlock first with: vault unlock", "\(reason)")
      }
    }
  }

  func testWhatAnotherCommandOrDeviceChangedFirst() {
    let cases: [(Conflict, String)] = [
      (
        .entryChangedWhileEdited(name: "mail/work"), "'mail/work' changed while it was being edited"
      ),
      (
        .entryChangedWhileContentRead(name: "big"),
        "'big' changed while its content was read; nothing was stored"
      ),
      (
        .entryChangedWhileRead(name: "big"),
        "'big' changed while it was being read; nothing was read"
      ),
      (
        .journalEntryChangedWhileEdited(id: "a1cec0b7"),
        "journal entry a1cec0b7 changed or was removed while it was being edited"
      ),
      (
        .keysChangedOnBothSides,
        "this device and the remote both changed the vault's keys or settings since the last sync"
          + " (a rotation or a recovery code); nothing was changed"
      ),
      (
        .syncedSinceRotationHere,
        "another device synced since this vault's master key was rotated here; its changes cannot"
          + " be merged until that device has the new key"
      ),
      (
        .recordMovedSinceLastSync(record: "Zm9vYmFy"),
        "the record Zm9vYmFy is not here as the last sync left it; nothing was changed"
      ),
      (
        .contentPlaceTaken,
        "a content of the remote has the place of one written here since the last sync; nothing"
          + " was changed"
      ),
      (
        .bothRotated(signer: "5a31f55c"),
        "this device and another (by device 5a31f55c) both rotated the vault's master key since the"
          + " last sync; nothing was changed"
      ),
    ]
    for (conflict, words) in cases {
      let report = ExitStatus.report(.conflict(conflict))
      XCTAssertEqual(report.code, .vaultChanged)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
    let edited = Conflict.entryChangedWhileEdited(name: "mail/work")
    XCTAssertEqual(
      ConflictOutcome(conflict: edited, outcome: .nothingWritten).message,
      "'mail/work' changed while it was being edited; nothing was written (run the command again)")
    XCTAssertEqual(
      ConflictOutcome(conflict: edited, outcome: .editSavedAs(name: "mail/work (edited x)"))
        .message,
      "'mail/work' changed while it was being edited; your edit was saved as 'mail/work (edited x)'"
    )
    XCTAssertEqual(
      ConflictOutcome(
        conflict: .journalEntryChangedWhileEdited(id: "a1cec0b7"),
        outcome: .editSavedAsJournalEntry(id: "0badc0de")
      ).message,
      "journal entry a1cec0b7 changed or was removed while it was being edited; your edit was"
        + " saved as the new entry 0badc0de")
    XCTAssertEqual(
      ConflictOutcome(conflict: edited, outcome: .nothingWritten).exitCode, .vaultChanged)
    XCTAssertEqual(
      RotationTakenFirst(meanwhile: false).message,
      "another device rotated the master key, and this device has just taken the new key; nothing"
        + " else was changed: run the command again to rotate it once more")
    XCTAssertEqual(
      RotationTakenFirst(meanwhile: true).message,
      "another device rotated the master key meanwhile, and this device has just taken the new"
        + " key; the recovery code shown was not put in force: run the command again")
  }

  func testAPathOthersCouldUse() {
    let cases: [(UnsafePath.Problem, String, String?)] = [
      (.notAFolder, "/p is not a folder (a symbolic link?)", "rm '/p'"),
      (.notARegularFile, "/p is not a regular file", nil),
      (.otherUser, "/p belongs to another user", nil),
      (.folderUsableByOthers, "/p can be used by other users", "chmod 700 '/p'"),
      (.fileUsableByOthers, "/p can be read or written by other users", "chmod 600 '/p'"),
      (
        .sharedFolder,
        "/p is shared with other users, who could plant the journal SQLite keeps beside the vault;"
          + " keep the vault in a private folder such as ~/.local/share/vault", nil
      ),
      (.folderWritableByOthers, "/p can be written by other users", "chmod go-w '/p'"),
      (.folderReadableByOthers, "/p can be read by other users", "chmod go-rwx '/p'"),
    ]
    for (problem, what, fix) in cases {
      let report = ExitStatus.report(.unsafePermissions(UnsafePath("/p", problem)))
      XCTAssertEqual(report.code, .unsafePermissions)
      XCTAssertEqual(report.message, what + "; refusing to use it")
      XCTAssertEqual(report.hint, fix.map { "run: " + $0 })
    }
  }
}
