import Foundation
import XCTest

@testable import VaultCore

/// A throwaway HOME with XDG folders, removed after the test.
final class TemporaryHome {
  let path: String

  init() {
    var template = Array("/tmp/vault-core-test-XXXXXX".utf8CString)
    _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    path = String(cString: template)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func environment(_ extra: [String: String] = [:]) -> VaultEnvironment {
    var variables = [
      "HOME": path, "XDG_DATA_HOME": path + "/data", "XDG_STATE_HOME": path + "/state",
      "XDG_RUNTIME_DIR": path + "/run",
    ]
    variables.merge(extra) { $1 }
    return VaultEnvironment(variables: variables)
  }

  var vaultPath: String { path + "/data/vault/vault.db" }
}

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
