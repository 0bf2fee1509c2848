import Foundation
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// Not a test: fills a vault for `bench/scale.sh` with `VAULT_BENCH_COUNT` entries in one write,
/// when `VAULT_BENCH_FILL` names the vault (its PIN in `VAULT_BENCH_PIN`); skipped otherwise.
final class BenchFillTests: XCTestCase {
  func testFillAVaultForTheBenchmark() throws {
    let variables = ProcessInfo.processInfo.environment
    guard let path = variables["VAULT_BENCH_FILL"], let pin = variables["VAULT_BENCH_PIN"],
      let count = variables["VAULT_BENCH_COUNT"].flatMap(Int.init)
    else { throw XCTSkip("set VAULT_BENCH_FILL, VAULT_BENCH_PIN and VAULT_BENCH_COUNT") }
    let vault = try Vault.open(path: path, environment: VaultEnvironment(variables: variables))
    let key = try vault.unlock(pin: PIN(utf8: SecureBytes(copying: Array(pin.utf8))))
    try vault.verifyState(masterKey: key)
    let store = EntryStore(vault: vault, masterKey: key)
    let content = SecureBytes(copying: Array("correct horse battery staple".utf8))
    try vault.write(masterKey: key) { change in
      for index in 0..<count {
        try store.put(
          EntryName("fill/\(index)"), content: content, overwrite: false, guarded: false,
          in: change)
      }
    }
  }
}
