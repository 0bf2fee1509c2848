import CSQLite
import Foundation
import VaultFormat

/// The vault file as an attacker with write access sees it: plain SQLite, edited with no key and
/// no check, through the SQLite C API.
///
/// Each statement runs on its own and is committed when it returns, so the next `vault` run sees
/// every change made so far. The file is closed when the value is released.
public final class VaultFileTamperer {
  /// A SQLite call that failed, or a query whose first row is not what the caller asked for.
  public struct Failure: Error, CustomStringConvertible {
    /// What failed, with SQLite's message.
    public var description: String
  }

  /// A value bound to a `?` placeholder or read from a column.
  public enum Value: Equatable, Sendable {
    /// Bytes.
    case blob([UInt8])
    /// A 64-bit integer.
    case integer(Int64)
    /// UTF-8 text.
    case text(String)
    /// SQL NULL.
    case null
  }

  private var handle: OpaquePointer?

  /// Opens the existing file at `path` for reading and writing (never creates one).
  ///
  /// - Throws: `Failure` when SQLite cannot open it.
  public init(path: String) throws {
    let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil)
    guard rc == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(handle)
      throw Failure(description: "cannot open \(path): \(message)")
    }
    sqlite3_busy_timeout(handle, 10_000)
  }

  deinit { sqlite3_close(handle) }

  /// Runs one statement with `parameters` bound to its `?` placeholders, in order, and returns
  /// its rows.
  ///
  /// - Throws: `Failure` with SQLite's message.
  @discardableResult
  public func execute(_ sql: String, _ parameters: [Value] = []) throws -> [[Value]] {
    var statement: OpaquePointer?
    try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql)
    defer { sqlite3_finalize(statement) }
    // SQLITE_TRANSIENT: SQLite copies the bound bytes before the call returns.
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    for (offset, parameter) in parameters.enumerated() {
      let index = Int32(offset + 1)
      switch parameter {
      case .blob(let bytes):
        // A nil pointer would bind NULL, not an empty blob.
        let rc =
          bytes.isEmpty
          ? sqlite3_bind_zeroblob(statement, index, 0)
          : bytes.withUnsafeBytes {
            sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient)
          }
        try check(rc, sql)
      case .integer(let number): try check(sqlite3_bind_int64(statement, index, number), sql)
      case .text(let text): try check(sqlite3_bind_text(statement, index, text, -1, transient), sql)
      case .null: try check(sqlite3_bind_null(statement, index), sql)
      }
    }
    var rows: [[Value]] = []
    while true {
      let rc = sqlite3_step(statement)
      if rc == SQLITE_DONE { return rows }
      guard rc == SQLITE_ROW else { throw failure(rc, sql) }
      rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
    }
  }

  /// The first column of the first row of `sql`, which must be a blob.
  ///
  /// - Throws: `Failure` when the query fails, returns no row, or returns another type.
  public func blob(_ sql: String, _ parameters: [Value] = []) throws -> [UInt8] {
    guard case .blob(let bytes) = try first(sql, parameters) else {
      throw Failure(description: "\(sql): the first column is not a blob")
    }
    return bytes
  }

  /// The first column of the first row of `sql`, which must be an integer.
  ///
  /// - Throws: `Failure` when the query fails, returns no row, or returns another type.
  public func integer(_ sql: String, _ parameters: [Value] = []) throws -> Int64 {
    guard case .integer(let number) = try first(sql, parameters) else {
      throw Failure(description: "\(sql): the first column is not an integer")
    }
    return number
  }

  /// Reads the blob `select` returns (see `blob(_:_:)`), lets `edit` change it, and runs `update`
  /// with the changed bytes as its only parameter.
  ///
  /// - Throws: `Failure` from either statement, or what `edit` throws.
  public func replaceBlob(
    _ select: String, _ update: String, _ edit: (inout [UInt8]) throws -> Void
  ) throws {
    var bytes = try blob(select)
    try edit(&bytes)
    try execute(update, [.blob(bytes)])
  }

  /// The header exactly as stored (`select body from header`).
  ///
  /// - Throws: `Failure` when the file has no header row.
  public func headerBody() throws -> [UInt8] { try blob("select body from header") }

  /// Stores `body` as the header, byte for byte (`update header set body = ?`).
  ///
  /// - Throws: `Failure` with SQLite's message.
  public func setHeaderBody(_ body: [UInt8]) throws {
    try execute("update header set body = ?", [.blob(body)])
  }

  /// Parses the header, lets `edit` change the object, and stores it back as `CompactJSON`
  /// writes it: the bytes of Python's `json.dumps(header, sort_keys=True, separators=(',', ':'))`.
  ///
  /// - Throws: `Failure` when the header is not a JSON object, `CompactJSON.UnsupportedValue`
  ///   for a value it cannot write, or what `edit` throws.
  public func editHeader(_ edit: (inout [String: Any]) throws -> Void) throws {
    let body = try headerBody()
    guard var header = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    else { throw Failure(description: "the header is not a JSON object") }
    try edit(&header)
    try setHeaderBody(CompactJSON.encode(header))
  }

  private func first(_ sql: String, _ parameters: [Value]) throws -> Value {
    guard let value = try execute(sql, parameters).first?.first else {
      throw Failure(description: "\(sql): no row")
    }
    return value
  }

  private func column(_ statement: OpaquePointer?, _ index: Int32) -> Value {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_NULL: return .null
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(statement, index))
      let text = UnsafeBufferPointer(start: sqlite3_column_text(statement, index), count: count)
      return .text(String(decoding: text, as: UTF8.self))
    default:
      // SQLITE_BLOB, or a float as SQLite's text of it (the vault stores none).
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let base = sqlite3_column_blob(statement, index), count > 0 else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
    }
  }

  private func check(_ rc: Int32, _ sql: String) throws {
    guard rc == SQLITE_OK else { throw failure(rc, sql) }
  }

  private func failure(_ rc: Int32, _ sql: String) -> Failure {
    Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(handle))) (SQLite code \(rc))")
  }
}
