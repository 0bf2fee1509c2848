import VaultCore
import VaultCrypto

/// What an import reads: a file's whole bytes, or a folder (a password store).
public enum ImportSource: Sendable {
  /// The contents of a file (or standard input), in guarded memory.
  case bytes(SecureBytes)
  /// A folder, by its path; `decrypt` gives the plaintext of one encrypted file in it (the
  /// caller runs `gpg`), by its path.
  case folder(path: String, decrypt: @Sendable (String) throws -> SecureBytes)
  /// The contents of a file encrypted under a passphrase (a `vault` export); `passphrase` gives
  /// the passphrase as typed (one line, without its newline). The reader calls it once per
  /// read, after the header was checked and before the key is derived, so a file that is no
  /// export costs no prompt; a caller that reads the source twice may return a kept copy.
  case encrypted(SecureBytes, passphrase: @Sendable () throws -> SecureBytes)
  /// A file encrypted under a passphrase, read in order and never held whole: each call of
  /// `open` gives a function that reads the file from its start into the buffer it is given
  /// (returning the bytes read, 0 at the end); a source read twice is opened twice.
  case encryptedFile(
    open: @Sendable () throws -> (UnsafeMutableRawBufferPointer) throws -> Int,
    passphrase: @Sendable () throws -> SecureBytes)
}

/// A reader of one import format: everything the source holds, or the first fault in it.
public protocol ImportReader {
  /// Reads every entry and journal entry of `source`, in source order.
  ///
  /// - Throws: `TransferError` with the line or record of the first fault; nothing is imported
  ///   then.
  static func read(_ source: ImportSource) throws -> TransferBatch

  /// Hands every item of `source` to `sink` one at a time, in source order, so that a large
  /// source never holds every content in memory at once (each content is guarded memory of its
  /// own, and the number of those is limited).
  ///
  /// - Throws: `TransferError` with the line or record of the first fault (the items before it
  ///   were handed over already: the caller writes nothing until the whole source is read);
  ///   what `sink` throws.
  static func read(_ source: ImportSource, each sink: (TransferItem) throws -> Void) throws
}

extension ImportReader {
  /// `read(_:)`, then its entries and then its journal entries, for a reader that reads a
  /// source whole.
  public static func read(_ source: ImportSource, each sink: (TransferItem) throws -> Void)
    throws
  {
    let batch = try read(source)
    for entry in batch.entries { try sink(.entry(entry)) }
    for journal in batch.journal { try sink(.journal(journal)) }
  }
}
