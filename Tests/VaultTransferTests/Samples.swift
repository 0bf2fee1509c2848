import Foundation
import VaultCore
import VaultCrypto

/// The committed samples under `Samples/` (made by `Samples/make-samples.sh`), found from this
/// file's path rather than as bundle resources.
enum Samples {
  /// `Tests/VaultTransferTests/Samples`.
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Samples").path

  /// The whole bytes of `Samples/PATH`, in guarded memory.
  static func bytes(_ path: String) throws -> SecureBytes {
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
    return SecureBytes(copying: data)
  }
}

extension SecureBytes {
  /// The bytes as UTF-8 text (invalid bytes replaced), for comparing with expected contents.
  var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}
