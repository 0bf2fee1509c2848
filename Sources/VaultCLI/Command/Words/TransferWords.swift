import VaultFormat
import VaultTransfer

/// The words of an import source's fault and of an export the writers refuse.
enum TransferWords {
  /// What is wrong, as the message says it after the location (`line 3: `).
  static func phrase(_ reason: TransferError.Reason) -> String {
    switch reason {
    case .said(let message): message
    case .fields(let error): "fields: \(error.message)"
    case .input(let fault): InputWords.phrase(fault)
    }
  }
}

extension ExportError: ReportableError {
  /// An export the format does not allow is refused input (5).
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user.
  var message: String {
    switch self {
    case .entryAfterJournal: "an export's entries come before its journal entries"
    case .notInOrder: "an export's entries are in ascending order of their names"
    case .badMetadata(let name): "'\(name)' cannot be exported: bad metadata"
    case .journalEntrySize: "a journal entry holds 1 byte to 16 MiB"
    case .largeNeedsBase64(let name): "'\(name)' is large: a csv export of it is content_b64"
    case .noPassphrase: "a vault export needs a passphrase"
    }
  }
}
