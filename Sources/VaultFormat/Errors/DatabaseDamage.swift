/// Damage SQLite reports, or found in the file's schema: the file is no database, a page or
/// length is out of bounds, or an object was added or changed.
public enum DatabaseDamage: Equatable, Sendable {
  /// SQLite says the file is not a database, or is corrupt (`SQLITE_NOTADB`, `SQLITE_CORRUPT`).
  case notADatabase
  /// SQLite refused the file's format byte or schema text; `message` is SQLite's
  /// (`sqlite3_errmsg`: `unsupported file format`, `malformed database schema (…)`).
  case damaged(message: String)
  /// A read met a value past SQLite's length limit: a damaged length or cell pointer.
  case lengthOutOfBounds
  /// A row of `sqlite_schema` has a value of the wrong type.
  case malformedSchemaRow
  /// The schema is not exactly the format's (`SchemaChange` says how).
  case schemaChanged(SchemaChange)
}

/// How a vault's schema differs from its format's.
public enum SchemaChange: Equatable, Sendable {
  /// An object the format does not create: its `type` and `name` as `sqlite_schema` has them,
  /// and the format version.
  case extraObject(type: String, name: String, format: Int64)
  /// A table or index of format `format` is missing or its SQL text changed.
  case missingOrChanged(format: Int64)
}
