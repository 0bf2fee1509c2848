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

    // MARK: Core, agent, journal
    case .sessionsNotRevoked(let folder, let code):
      "cannot revoke the sessions in \(folder): \(String(cString: strerror(code)))"
    }
  }
}
