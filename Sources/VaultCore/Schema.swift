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
