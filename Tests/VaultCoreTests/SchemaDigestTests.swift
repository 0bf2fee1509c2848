import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// The schema check's fast path: the digests it compares with are those of the schemas as
/// SQLite records them, and a changed schema still fails with the object named.
final class SchemaDigestTests: XCTestCase {
  func testKnownDigestsAreTheSchemasAsSQLiteRecordsThem() throws {
    for version: Int64 in [1, 2] {
      let made = try Schema.expectedObjects(version: version)
      XCTAssertEqual(
        Schema.knownDigest(version: version), Schema.digest(made).hex, "version \(version)")
    }
  }

  func testDigestTellsANullSQLFromAnEmptyOneAndFieldsApart() {
    let null = Schema.Object(type: "index", name: "a", table: "t", sql: nil)
    let empty = Schema.Object(type: "index", name: "a", table: "t", sql: "")
    let shifted = Schema.Object(type: "index", name: "", table: "at", sql: nil)
    XCTAssertNotEqual(Schema.digest([null]), Schema.digest([empty]))
    XCTAssertNotEqual(Schema.digest([null]), Schema.digest([shifted]))
  }

  func testAVaultWithAnExtraTriggerIsRefusedByName() throws {
    let home = TemporaryHome()
    let path = home.vaultPath
    _ = try Vault.create(
      path: path, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: home.environment())
    let db = try SQLiteDatabase(path: path, create: false)
    try db.execute("CREATE TRIGGER quiet BEFORE DELETE ON records BEGIN SELECT 1; END")
    XCTAssertThrowsError(try Vault.open(path: path, environment: home.environment())) {
      XCTAssertEqual(
        VaultError($0),
        .integrity(
          .database(.schemaChanged(.extraObject(type: "trigger", name: "quiet", format: 2)))))
    }
  }
}
