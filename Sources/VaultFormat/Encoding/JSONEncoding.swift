import FoundationEssentials
import Glibc
import VaultCrypto

extension JSONEncoder {
  /// An encoder with sorted keys, as every JSON body of the format is written.
  package static var sorted: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  /// `encode` into bytes.
  ///
  /// - Throws: `VaultError.storage` when the value cannot be encoded.
  package func encodedBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
    do {
      return try [UInt8](self.encode(value))
    } catch {
      throw VaultError.storage(.unencodable(.record))
    }
  }
}
