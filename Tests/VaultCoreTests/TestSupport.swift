import Foundation
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat

func pin(_ text: String) throws -> PIN {
  try PIN(utf8: SecureBytes(copying: Array(text.utf8)))
}

func hex(_ text: String) -> [UInt8] {
  var out: [UInt8] = []
  var chars = Array(text.utf8)[...]
  while chars.count >= 2 {
    out.append(UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16)!)
    chars = chars.dropFirst(2)
  }
  return out
}

func key(_ bytes: [UInt8]) -> SymmetricKey { SymmetricKey(SecureBytes(copying: bytes)) }

func secure(_ text: String) -> SecureBytes { SecureBytes(copying: Array(text.utf8)) }
