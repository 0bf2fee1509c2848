/// The SQL schema of the vault file, as `Vault` creates it and `vault(5)` prints it.
public enum Schema {
  /// The statements that create format 1's three tables, `header`, `entries` and `chunks`, one
  /// clause a line.
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
}

extension Schema {
  /// One row of `sqlite_master`: what a schema is made of.
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
    try db.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").map {
      guard let type = $0[0].string, let name = $0[1].string, let table = $0[2].string else {
        throw VaultError.integrity("the vault's schema has a malformed row")
      }
      return Object(type: type, name: name, table: table, sql: $0[3].string)
    }
  }

  /// The objects `v1` creates, as SQLite records them (made once per process in memory).
  static func expectedObjects() throws -> [Object] {
    try expected.get()
  }

  private static let expected: Result<[Object], Error> = Result {
    let db = try SQLiteDatabase(path: ":memory:", create: true)
    try db.execute(v1)
    return try objects(of: db)
  }
}
