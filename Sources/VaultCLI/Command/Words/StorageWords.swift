import VaultFormat

#if canImport(Glibc)
  import Glibc
#endif

/// The words of a failed file or database operation.
enum StorageWords {
  /// The one-line message, said as it is.
  static func phrase(_ failure: StorageFailure) -> String {
    switch failure {
    case .file(let operation, let path, let code):
      "cannot \(operation.rawValue) \(path): \(String(cString: strerror(code)))"

    // MARK: Header, keyslots, devices, files, format 1, biometry
    case .notAFolder(let path): "\(path) exists and is not a folder"
    case .headerNotEncodable: "the vault header cannot be encoded"
    case .privateFileNotMade(let path): "cannot create a private file beside \(path)"
    case .builtFileReplaced(let path):
      "the file being built beside \(path) was replaced; nothing was made"
    case .building(let path, let temporary, let failure):
      phrase(failure).replacing(temporary, with: path)
    case .sensorStateNotEncodable: "the simulated sensor's state cannot be encoded"
    case .kdfOutOfMemory(let mebibytes): "Argon2id could not allocate \(mebibytes) MiB"
    case .outOfMemory(let bytes): "out of memory for \(bytes) bytes"

    // MARK: Records, state, SQLite, entries
    case .databaseNotOpened(let path, let message): "cannot open \(path): \(message)"
    case .database(let failure): words(failure)
    case .backup(let failure): "cannot back up: \(words(failure))"
    case .spool(let failure): words(failure) + "; nothing was stored"
    case .unencodable(.record): "a record cannot be encoded"
    case .unencodable(.recordBody): "a record's body cannot be encoded"
    case .unencodable(.syncRecord): "the sync record cannot be encoded"
    case .newFileWithoutState: "the new vault file has no state"
    case .headerWithoutChunkHash:
      "the new header does not say how the vault's chunks are hashed; nothing was written"
    }
  }

  // MARK: Records, state, SQLite, entries

  /// SQLite's message and, for a failed write, its likely cause.
  static func words(_ failure: SQLiteFailure) -> String {
    switch failure.write {
    case nil: failure.message
    case .fileSizeLimit(let bytes)?:
      "\(failure.message): the file-size limit (ulimit -f) of \(bytes) bytes was reached;"
        + " nothing was written"
    case .diskFull?: "\(failure.message): the disk is full; nothing was written"
    case .unknown?: "\(failure.message) while writing; nothing was written"
    }
  }

  /// How a content's spool file failed, before "; nothing was stored".
  static func words(_ failure: SpoolFailure) -> String {
    switch failure {
    case .notMade(let folder, let code):
      "cannot make a spool file in \(folder): \(String(cString: strerror(code)))"
    case .notWritten(let code):
      "cannot write the content's spool file: \(String(cString: strerror(code)))"
    case .notReadBack: "the content's spool file cannot be read back"
    case .changed: "the content's spool file was changed"
    }
  }
}
