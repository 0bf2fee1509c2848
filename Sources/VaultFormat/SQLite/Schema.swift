import VaultCrypto

/// The SQL schemas of the vault file, as `Vault` creates them and `vault(5)` prints them.
public enum Schema {
  /// The statements that create format 2's tables, one clause a line.
  public static let v2 = """
    CREATE TABLE header (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      body BLOB NOT NULL,
      mac BLOB NOT NULL
    );
    CREATE TABLE records (
      record_id BLOB PRIMARY KEY,
      lookup BLOB UNIQUE,
      kind INTEGER NOT NULL,
      revision INTEGER NOT NULL,
      box BLOB NOT NULL
    );
    CREATE TABLE chunks (
      record_id BLOB NOT NULL,
      revision INTEGER NOT NULL,
      idx INTEGER NOT NULL,
      box BLOB NOT NULL,
      PRIMARY KEY (record_id, revision, idx)
    );
    CREATE TABLE pending (
      record_id BLOB PRIMARY KEY,
      box BLOB NOT NULL
    );
    CREATE TABLE aggregate (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      buckets BLOB NOT NULL,
      chunks BLOB NOT NULL
    );
    CREATE TABLE states (
      generation INTEGER PRIMARY KEY,
      previous BLOB NOT NULL,
      summary BLOB NOT NULL,
      mac BLOB NOT NULL
    );
    """

  /// The statements that created format 1's three tables, `header`, `entries` and `chunks`.
  public static let v1 = """
    CREATE TABLE header (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      body BLOB NOT NULL,
      mac BLOB NOT NULL
    );
    CREATE TABLE entries (
      entry_id BLOB PRIMARY KEY,
      lookup BLOB UNIQUE,
      kind INTEGER NOT NULL,
      meta BLOB NOT NULL
    );
    CREATE TABLE chunks (
      entry_id BLOB NOT NULL REFERENCES entries (entry_id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      box BLOB NOT NULL,
      PRIMARY KEY (entry_id, idx)
    );
    """

  /// The schema of a schema version (`PRAGMA user_version`: 1 or 2).
  static func statements(version: Int64) -> String? {
    switch version {
    case 1: v1
    case 2: v2
    default: nil
    }
  }
}

extension Schema {
  /// One row of `sqlite_schema`: what a schema is made of, with its full SQL text.
  struct Object: Equatable {
    var type: String
    var name: String
    var table: String
    var sql: String?
  }

  /// Every object of `db`'s schema, by name.
  ///
  /// - Throws: `VaultError.integrity` when the schema cannot be read.
  static func objects(of db: SQLiteDatabase) throws -> [Object] {
    try db.query("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name").map {
      guard let type = $0[0].string, let name = $0[1].string, let table = $0[2].string else {
        throw VaultError.integrity(.database(.malformedSchemaRow))
      }
      return Object(type: type, name: name, table: table, sql: $0[3].string)
    }
  }

  /// The objects schema `version` creates, as SQLite records them (made once per process in
  /// memory).
  static func expectedObjects(version: Int64) throws -> [Object] {
    try (version == 1 ? expectedV1 : expectedV2).get()
  }

  private static let expectedV1 = made(v1)
  private static let expectedV2 = made(v2)

  private static func made(_ statements: String) -> Result<[Object], Error> {
    Result {
      let db = try SQLiteDatabase(path: ":memory:", create: true)
      try db.execute(statements)
      return try objects(of: db)
    }
  }

  /// BLAKE2b-256 of `objects` in order, each field length-prefixed (u32be; a NULL `sql` as
  /// length 0xFFFFFFFF).
  static func digest(_ objects: [Object]) -> [UInt8] {
    var parts: [[UInt8]] = []
    parts.reserveCapacity(objects.count * 4)
    for object in objects {
      for field in [object.type, object.name, object.table, object.sql] {
        guard let field else {
          parts.append([0xFF, 0xFF, 0xFF, 0xFF])
          continue
        }
        let bytes = Array(field.utf8)
        parts.append(withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { Array($0) } + bytes)
      }
    }
    return GenericHash.hash(parts: parts)
  }

  /// The `digest` (hex) of the objects each schema version creates, as SQLite records them.
  ///
  /// A vault's schema matching it is checked without making the expected one in memory;
  /// `SchemaDigestTests` recomputes both. (A `switch`, not a dictionary, so no process looks up
  /// a `Hashable` conformance for it.)
  static func knownDigest(version: Int64) -> String? {
    switch version {
    case 1: "5c62f1feb1bbf2d752167523e0f7351e27bb338ca59673f2633915ece757f251"
    case 2: "030b7728a1c00774a8e83872a4d3672ad5c811566cbae524383805ec0a01ac01"
    default: nil
    }
  }

  /// Refuses a schema that is not exactly `version`'s, row for row and in its full SQL text.
  ///
  /// - Throws: `VaultError.integrity` naming the first object out of place.
  static func check(_ db: SQLiteDatabase, version: Int64) throws {
    let found = try objects(of: db)
    if let known = knownDigest(version: version), digest(found).hex == known { return }
    let expected = try expectedObjects(version: version)
    guard found != expected else { return }
    let change =
      found.first { !expected.contains($0) }.map {
        SchemaChange.extraObject(type: $0.type, name: $0.name, format: version)
      } ?? .missingOrChanged(format: version)
    throw VaultError.integrity(.database(.schemaChanged(change)))
  }
}
