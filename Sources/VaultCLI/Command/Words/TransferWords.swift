import VaultFormat
import VaultTransfer

/// The words of an import source's fault.
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
