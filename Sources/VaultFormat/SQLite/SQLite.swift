import CSQLite
import FoundationEssentials
import Glibc

/// A minimal SQLite connection: prepared statements with bound parameters, one `check(rc)` that
/// turns result codes into `VaultError.storage`, and transactions.
package final class SQLiteDatabase {
  private(set) var handle: OpaquePointer?
  /// The database file.
  let path: String
  /// How this connection waits for another process's lock (`FileLockWait`).
  private let lockWait: FileLockWait.State

  /// Opens (or with `create`, creates) the database file; a lock another process holds is
  /// waited for up to `lockWaitLimit` seconds.
  package init(path: String, create: Bool, lockWaitLimit: Double = FileLockWait.defaultLimit) throws
  {
    lockWait = FileLockWait.State(limit: lockWaitLimit)
    self.path = path
    let flags =
      (create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READWRITE)
      | SQLITE_OPEN_NOMUTEX
    let rc = sqlite3_open_v2(path, &handle, flags, nil)
    guard rc == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(handle)
      handle = nil
      throw VaultError.storage(.databaseNotOpened(path: path, message: message))
    }
    sqlite3_busy_handler(
      handle,
      { context, count in
        guard let context else { return 0 }
        return Unmanaged<FileLockWait.State>.fromOpaque(context).takeUnretainedValue()
          .again(count) ? 1 : 0
      }, Unmanaged.passUnretained(lockWait).toOpaque())
    // Nothing in the file's schema (a planted trigger or view) may call functions with side
    // effects; the schema is also compared with the format's before any use.
    try execute("PRAGMA trusted_schema = OFF")
  }

  deinit { sqlite3_close(handle) }

  /// Maps a SQLite result code to an error unless it is one of `ok` (default `SQLITE_OK`).
  ///
  /// An array, not a `Set`: a set of `Int32` makes the Swift runtime look up `Int32`'s
  /// `Hashable` conformance at run time, in every process, for two or three codes.
  @discardableResult
  func check(_ rc: Int32, _ ok: [Int32] = [SQLITE_OK]) throws -> Int32 {
    guard ok.contains(rc) else {
      if rc == SQLITE_NOTADB || rc & 0xff == SQLITE_CORRUPT {
        throw VaultError.integrity(.database(.notADatabase))
      }
      let message = String(cString: sqlite3_errmsg(handle))
      // A damaged file-format byte or schema text: SQLite says so only in words.
      if rc == SQLITE_ERROR
        && (message.hasPrefix("unsupported file format")
          || message.hasPrefix("malformed database schema"))
      {
        throw VaultError.integrity(.database(.damaged(message: message)))
      }
      if rc & 0xff == SQLITE_BUSY || rc & 0xff == SQLITE_LOCKED {
        throw VaultError.busy(seconds: Int(lockWait.limit))
      }
      throw VaultError.storage(.database(describe(rc)))
    }
    return rc
  }

  /// SQLite's message and, for a failed write, its likely cause.
  ///
  /// The cause is a file-size limit or a full disk (SQLite keeps no errno for a short write).
  /// The transaction was rolled back.
  func describe(_ rc: Int32) -> SQLiteFailure {
    let message = String(cString: sqlite3_errmsg(handle))
    let extended = sqlite3_extended_errcode(handle)
    // SQLITE_IOERR_WRITE is (SQLITE_IOERR | 3 << 8); the C macro is not imported.
    guard extended == SQLITE_IOERR | 3 << 8 || rc & 0xff == SQLITE_FULL else {
      return SQLiteFailure(message: message)
    }
    var limit = rlimit()
    if getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max {
      return SQLiteFailure(message: message, write: .fileSizeLimit(bytes: UInt64(limit.rlim_cur)))
    }
    var fs = statvfs()
    if statvfs(PrivateFiles.parentFolder(of: path), &fs) == 0
      && UInt64(fs.f_bavail) * UInt64(fs.f_frsize) < 1 << 20
    {
      return SQLiteFailure(message: message, write: .diskFull)
    }
    return SQLiteFailure(message: message, write: .unknown)
  }

  /// Runs statements that take no parameters and return no rows.
  package func execute(_ sql: String) throws {
    try check(sqlite3_exec(handle, sql, nil, nil, nil))
  }

  /// A bindable value.
  package enum Value {
    case blob([UInt8])
    case integer(Int64)
    case text(String)
    case null
  }

  /// Runs one statement with parameters and returns every row as an array of column values.
  @discardableResult
  package func query(_ sql: String, _ parameters: [Value] = []) throws -> [[Value]] {
    var rows: [[Value]] = []
    try forEachRow(sql, parameters) { rows.append($0) }
    return rows
  }

  /// Runs a statement and hands each result row to `body` as it is stepped to, so that a query
  /// over large rows holds one row at a time.
  ///
  /// - Throws: `VaultError.storage` (or `.integrity` for a damaged file); what `body` throws,
  ///   which ends the query.
  func forEachRow(_ sql: String, _ parameters: [Value] = [], _ body: ([Value]) throws -> Void)
    throws
  {
    try prepare(sql).forEachRow(parameters, body)
  }

  /// A prepared statement, to run many times with different parameters (one chunk after
  /// another) without preparing it again.
  ///
  /// - Throws: `VaultError.storage` when the SQL does not prepare.
  package func prepare(_ sql: String) throws -> Statement {
    var statement: OpaquePointer?
    try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil))
    return Statement(database: self, handle: statement)
  }

  /// A prepared statement of this connection, finalized when released.
  package final class Statement {
    private let database: SQLiteDatabase
    private let handle: OpaquePointer?

    fileprivate init(database: SQLiteDatabase, handle: OpaquePointer?) {
      self.database = database
      self.handle = handle
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `parameters`, steps through every row handing it to `body`, then resets the
    /// statement for its next use.
    ///
    /// - Throws: as `SQLiteDatabase.forEachRow`.
    func forEachRow(_ parameters: [Value], _ body: ([Value]) throws -> Void) throws {
      try forEachRawRow(parameters) { try body($0.values()) }
    }

    /// Binds `parameters` and hands each row to `body` as SQLite holds it (`RawRow`: its
    /// columns are valid only during the call), copying nothing.
    ///
    /// - Throws: as `SQLiteDatabase.forEachRow`.
    func forEachRawRow(_ parameters: [Value], _ body: (RawRow) throws -> Void) throws {
      defer {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
      }
      let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
      for (offset, value) in parameters.enumerated() {
        let index = Int32(offset + 1)
        switch value {
        case .blob(let bytes):
          _ = try bytes.withUnsafeBytes {
            try database.check(
              sqlite3_bind_blob(
                handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                Int32($0.count), transient))
          }
        case .integer(let number): try database.check(sqlite3_bind_int64(handle, index, number))
        case .text(let string):
          try database.check(sqlite3_bind_text(handle, index, string, -1, transient))
        case .null: try database.check(sqlite3_bind_null(handle, index))
        }
      }
      while try database.check(stepped(), [SQLITE_ROW, SQLITE_DONE]) == SQLITE_ROW {
        try body(RawRow(handle: handle))
      }
    }

    /// One `sqlite3_step`; a read told that a value passes SQLite's length limit is refused as
    /// damage.
    ///
    /// No value the vault writes comes near the limit (contents are chunked), so a read meets
    /// it only where a damaged length or cell pointer says so (`PRAGMA integrity_check`
    /// included, which reads every column).
    ///
    /// - Throws: `VaultError.integrity` then.
    private func stepped() throws -> Int32 {
      let rc = sqlite3_step(handle)
      if rc == SQLITE_TOOBIG && sqlite3_stmt_readonly(handle) != 0 {
        throw VaultError.integrity(.database(.lengthOutOfBounds))
      }
      return rc
    }

    /// The first row for `parameters`, or nil when there is none.
    ///
    /// - Throws: as `forEachRow`.
    package func first(_ parameters: [Value]) throws -> [Value]? {
      var found: [Value]?
      try forEachRow(parameters) { row in if found == nil { found = row } }
      return found
    }

    /// Runs the statement for `parameters`, ignoring any rows.
    ///
    /// - Throws: as `forEachRow`.
    func run(_ parameters: [Value]) throws {
      try forEachRow(parameters) { _ in }
    }
  }

  /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws.
  package func transaction<R>(_ body: () throws -> R) throws -> R {
    try within("BEGIN IMMEDIATE", body)
  }

  /// Runs `body` inside one read transaction (`BEGIN … COMMIT`), so everything it reads is one
  /// committed version of the file; inside a transaction already, it just runs `body`.
  func reading<R>(_ body: () throws -> R) throws -> R {
    guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
    return try within("BEGIN", body)
  }

  /// Runs `body` between `begin` and `COMMIT`, rolling back when it throws.
  private func within<R>(_ begin: String, _ body: () throws -> R) throws -> R {
    try execute(begin)
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// Copies the whole database into a new file at `path` with SQLite's online backup API, so the
  /// copy is consistent even while other processes write.
  package func backup(to path: String) throws {
    let target = try SQLiteDatabase(path: path, create: true)
    guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
      throw VaultError.storage(.backup(target.describe(sqlite3_errcode(target.handle))))
    }
    let step = sqlite3_backup_step(backup, -1)
    let finish = sqlite3_backup_finish(backup)
    guard step == SQLITE_DONE, finish == SQLITE_OK else {
      throw VaultError.storage(.backup(target.describe(sqlite3_errcode(target.handle))))
    }
  }

  /// Number of rows changed by the last statement.
  package var changes: Int { Int(sqlite3_changes(handle)) }

  /// The rowid of the last row inserted through this connection.
  var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}

extension SQLiteDatabase.Value {
  /// The blob, or nil for any other type.
  package var blob: [UInt8]? { if case .blob(let b) = self { b } else { nil } }
  /// The integer, or nil for any other type.
  package var integer: Int64? { if case .integer(let i) = self { i } else { nil } }
  /// The text, or nil for any other type.
  package var string: String? { if case .text(let t) = self { t } else { nil } }
}

/// One result row of a statement as SQLite holds it, valid only while the statement stays on it.
struct RawRow {
  fileprivate let handle: OpaquePointer?

  /// Every column copied out, in order (a blob as bytes, an empty blob as `[]`).
  func values() -> [SQLiteDatabase.Value] {
    (0..<sqlite3_column_count(handle)).map { column in
      switch sqlite3_column_type(handle, column) {
      case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
      case SQLITE_NULL: return .null
      case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(handle, column)))
      default:
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let base = sqlite3_column_blob(handle, column), count > 0 else { return .blob([]) }
        return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
      }
    }
  }

  /// True when column `index` is SQL NULL.
  func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

  /// Column `index` as an integer, or nil when it is not one.
  func integer(_ index: Int32) -> Int64? {
    sqlite3_column_type(handle, index) == SQLITE_INTEGER
      ? sqlite3_column_int64(handle, index) : nil
  }

  /// Column `index`'s bytes when it is a blob (empty for an empty one), or nil for another type.
  func blob(_ index: Int32) -> UnsafeRawBufferPointer? {
    guard sqlite3_column_type(handle, index) == SQLITE_BLOB else { return nil }
    let count = Int(sqlite3_column_bytes(handle, index))
    return UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, index), count: count)
  }
}
