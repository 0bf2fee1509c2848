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
    // MARK: Core, agent, journal
    case .sessionsNotRevoked(let folder, let code):
      "cannot revoke the sessions in \(folder): \(String(cString: strerror(code)))"
    }
  }
}
