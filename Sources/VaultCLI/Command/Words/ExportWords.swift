import VaultCore
import VaultCrypto

extension ExportError: ReportableError {
  /// A refused passphrase or a file that is no readable export is invalid input (5).
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user.
  var message: String {
    switch self {
    case .passphrase(let fault): Self.words(fault)
    case .notAnExport: "this is not a vault export (it does not start with 'VAULTEXP')"
    case .unsupportedVersion(let found, let reads):
      "the export is of version \(found); this vault reads version \(reads)"
    case .notAProfile(let opsLimit, let memLimit):
      "the export's Argon2id parameters (opslimit \(opsLimit), memlimit \(memLimit)) are not"
        + " those of a profile (\(Self.profiles))"
    case .entryAfterJournal: "an export's entries come before its journal entries"
    case .notInOrder: "an export's entries are in ascending order of their names"
    case .badMetadata(let name): "'\(name)' cannot be exported: bad metadata"
    case .journalEntrySize: "a journal entry holds 1 byte to 16 MiB"
    case .largeNeedsBase64(let name): "'\(name)' is large: a csv export of it is content_b64"
    case .noPassphrase: "a vault export needs a passphrase"
    }
  }

  /// The profiles an export's Argon2id parameters may be, by name.
  static var profiles: String {
    let all: [KDFParameters] = KDFParameters.userProfiles + [.test]
    return all.map(\.profile).joined(separator: ", ")
  }

  /// Why a passphrase was refused.
  static func words(_ fault: PassphraseFault) -> String {
    switch fault {
    case .empty: "the passphrase is empty"
    case .controlCharacter: "the passphrase contains a control character"
    case .notUTF8: "the passphrase is not valid UTF-8"
    case .tooLong(let maximum): "the passphrase is longer than \(maximum) bytes"
    case .tooShort(let length, let minimum):
      "the passphrase has \(length) characters; an export's needs at least \(minimum) (it is all"
        + " that protects the file)"
    case .weak(let bits, let minimum):
      "the passphrase is weak (about \(bits) bits; an export's needs \(minimum)): use more words"
        + " or characters"
    }
  }
}
