import VaultCore
import VaultFormat

/// The words of the vault file, the device state and the agent's socket: damage, a format, permissions, a file that changed or is busy.
enum FileWords {
  /// The exit code, message and hint of one of this domain's errors (`ExitStatus.report`).
  static func report(_ error: VaultError) -> ExitStatus.Report {
    switch error {
    case .integrity(let damage):
      return (.integrity, "integrity failure: \(DamageWords.phrase(damage))", nil)
    case .malformedHeader(let fault):
      return (.integrity, "the vault header is malformed: \(HeaderWords.phrase(fault))", nil)
    case .unsupportedVersion(let version):
      return (
        .integrity,
        "unsupported vault format \(version) (this vault reads formats 1 and"
          + " \(Header.currentFormat))", nil
      )
    case .staleState(let found, let foundMAC, let seen, let seenMAC, let older):
      let state = "the vault file's state (generation \(found), \(foundMAC.prefix(8)))"
      let last = "the one this device last saw (generation \(seen), \(seenMAC.prefix(8)))"
      return (
        .integrity,
        older
          ? "integrity failure: \(state) is older than \(last): the file, or part of it, was put"
            + " back from an earlier copy"
          : "integrity failure: \(state) is not a descendant of \(last): the file was replaced"
            + " by another copy",
        "if you restored a backup on purpose, run 'vault check --accept-older'; otherwise keep"
          + " this file aside and restore your latest backup"
      )
    case .noVault(let path):
      return (
        .noVault, "no vault at \(path)",
        "create one with 'vault init', or join one synced elsewhere with 'vault sync clone REMOTE'"
      )
    case .vaultExists(let path):
      return (.exists, "\(path) already exists; vault never overwrites a file", nil)
    case .unsafePermissions(let unsafe):
      let (what, fix) = unsafeWords(unsafe)
      return (.unsafePermissions, "\(what); refusing to use it", fix.map { "run: \($0)" })
    case .agentImpostor(let socket, let pid, let finding):
      return (
        .unsafePermissions,
        "the agent socket \(socket) is served by a process that is not vault's agent (pid"
          + " \(pid): \(words(finding))); nothing was sent to it",
        "end that process (kill \(pid)) or remove the socket, then run 'vault unlock'; vault(1)"
          + " SECURITY says what vault checks"
      )
    case .vaultChanged(let change):
      return (
        .vaultChanged, "the vault changed while the command ran: \(words(change)); run it again",
        nil
      )
    case .conflict(let conflict):
      return (.vaultChanged, words(conflict), nil)
    case .storage(let failure):
      return (.failure, StorageWords.phrase(failure), nil)
    case .busy(let seconds):
      return (
        .vaultChanged,
        "another vault command kept the vault file busy for more than \(seconds) s; nothing was"
          + " changed", "run it again when that command has ended"
      )
    default:
      preconditionFailure("\(error) is not one of \(Self.self)'s")
    }
  }

  /// What changed, as the message says it after "the vault changed while the command ran: ".
  static func words(_ change: VaultChange) -> String {
    switch change {
    case .headerChangedFirst: "another command changed its header first"
    case .headerChangedWhilePINAsked: "its header changed while the PIN was asked for"
    case .headerChangedSincePINChecked: "its header changed since the PIN was checked"
    case .masterKeyReplaced:
      "its master key was replaced by another command (a 'vault rekey') or the file was"
        + " replaced; nothing was written"
    case .journalKeyReplaced:
      "its journal key was replaced while the entry was being written; nothing was written"
    case .anotherSync: "another sync of this vault ran meanwhile"
    case .guardedDuringExport(let name):
      "'\(Output.printable(name))' was added or guarded while the export began"
    }
  }

  /// What was changed first, as the message says it.
  static func words(_ conflict: Conflict) -> String {
    switch conflict {
    case .entryChangedWhileEdited(let name): "'\(name)' changed while it was being edited"
    case .entryChangedWhileContentRead(let name):
      "'\(name)' changed while its content was read; nothing was stored"
    case .entryChangedWhileRead(let name):
      "'\(name)' changed while it was being read; nothing was read"
    case .journalEntryChangedWhileEdited(let id):
      "journal entry \(id) changed or was removed while it was being edited"
    case .keysChangedOnBothSides:
      "this device and the remote both changed the vault's keys or settings since the last sync"
        + " (a rotation or a recovery code); nothing was changed"
    case .syncedSinceRotationHere:
      "another device synced since this vault's master key was rotated here; its changes cannot"
        + " be merged until that device has the new key"
    case .recordMovedSinceLastSync(let record):
      "the record \(record) is not here as the last sync left it; nothing was changed"
    case .contentPlaceTaken:
      "a content of the remote has the place of one written here since the last sync; nothing"
        + " was changed"
    case .bothRotated(let signer):
      "this device and another (\(SyncWords.by(signer))) both rotated the vault's master key since the last"
        + " sync; nothing was changed"
    }
  }

  /// The rule of `AgentPeer` the process serving the agent's socket failed, as the message
  /// says it after "pid PID: ".
  static func words(_ finding: PeerFinding) -> String {
    switch finding {
    case .noPeer: "the kernel names no peer"
    case .notHeld: "its process could not be held"
    case .wrongGroup(let group, let expected):
      "it runs with group \(group), not vault's group \(expected)"
    case .ownExecutableUnreadable: "this process cannot read its own executable"
    case .otherProgram(let program): "its program is \(program ?? "another program")"
    case .dumpable: "it is dumpable"
    case .executableUnreadable: "its executable cannot be read"
    case .ended: "it ended while it was checked"
    case .noGreeting: "it did not greet as vault's agent"
    case .anotherWriter(let pid): "another process (pid \(pid)) speaks for it"
    }
  }

  /// What is wrong with an unsafe path, and the command that fixes it when there is one.
  static func unsafeWords(_ unsafe: UnsafePath) -> (what: String, fix: String?) {
    let path = unsafe.path
    return switch unsafe.problem {
    case .notAFolder: ("\(path) is not a folder (a symbolic link?)", "rm '\(path)'")
    case .notARegularFile: ("\(path) is not a regular file", nil)
    case .otherUser: ("\(path) belongs to another user", nil)
    case .folderUsableByOthers: ("\(path) can be used by other users", "chmod 700 '\(path)'")
    case .fileUsableByOthers:
      ("\(path) can be read or written by other users", "chmod 600 '\(path)'")
    case .sharedFolder:
      (
        "\(path) is shared with other users, who could plant the journal SQLite keeps beside the"
          + " vault; keep the vault in a private folder such as ~/.local/share/vault", nil
      )
    case .folderWritableByOthers: ("\(path) can be written by other users", "chmod go-w '\(path)'")
    case .folderReadableByOthers:
      ("\(path) can be read by other users", "chmod go-rwx '\(path)'")
    case .programWritableByOthers:
      (
        "\(path) can be written by other users, who could replace the program vault hands your"
          + " PIN to", "chmod go-w '\(path)'"
      )
    }
  }
}

/// A conflict a command met, and what it did about it: nothing written, or the user's edit
/// kept under another name (18).
struct ConflictOutcome: ReportableError {
  /// What it did.
  enum Outcome: Equatable {
    /// Nothing was written; the command can run again.
    case nothingWritten
    /// The edit of an entry was stored as the entry `name`.
    case editSavedAs(name: String)
    /// The edit of a journal entry was stored as a new entry, `id` (its short id).
    case editSavedAsJournalEntry(id: String)
  }

  /// What was changed first.
  let conflict: Conflict
  /// What the command did.
  let outcome: Outcome

  var exitCode: ExitCode { .vaultChanged }

  var message: String {
    let first = FileWords.words(conflict)
    return switch outcome {
    case .nothingWritten: first + "; nothing was written (run the command again)"
    case .editSavedAs(let name): first + "; your edit was saved as '\(name)'"
    case .editSavedAsJournalEntry(let id): first + "; your edit was saved as the new entry \(id)"
    }
  }
}
