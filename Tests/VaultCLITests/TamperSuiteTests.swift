import Foundation
import VaultCore
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultJournal
@testable import VaultSecrets

/// Every single-byte flip of a small vault file, and every SQL-level deletion, resurrection and
/// rollback of a row, a whole-file and a header rollback, and planted schema objects: each read
/// gives the right plaintext or an integrity failure (exit 17), never wrong data, a crash or
/// another code; and `check` reports every damage a read would hit.
///
/// In-process against the library by default (fast); `VAULT_TAMPER_BINARY=1` runs the same
/// mutations through the built binary (slow, a manual setting). Prints its figures.
final class TamperSuiteTests: XCTestCase {
  /// What the vault holds after the last write: the truth every read is held to.
  static let expected: [String: [UInt8]] = [
    "a": Array("alpha, second revision".utf8),
    "b": (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) },
  ]
  static let removed = "d"
  static let journal = ["first page\n", "second page\n"]

  /// How one read or check ended.
  enum Outcome: Equatable {
    case right
    case refused
    case wrong(String)
  }

  /// Reads the whole vault (each entry, the removed name, the list, the journal) and checks it.
  protocol Reader {
    func reads() -> [Outcome]
    func check() -> Outcome
  }

  struct LibraryReader: Reader {
    let path: String
    let environment: VaultEnvironment
    let masterKey: SymmetricKey

    static func classify(_ error: Error) -> Outcome {
      switch VaultError(error) {
      case .integrity, .malformedHeader, .unsupportedVersion,
        .staleState:
        return .refused
      default: return .wrong("\(error)")
      }
    }

    func opened() throws -> Vault {
      let vault = try Vault.open(path: path, environment: environment)
      try vault.verifyHeader(masterKey: masterKey)
      try vault.verifyState(masterKey: masterKey)
      return vault
    }

    func reads() -> [Outcome] {
      let vault: Vault
      do { vault = try opened() } catch { return [Self.classify(error)] }
      let store = EntryStore(vault: vault, masterKey: masterKey)
      var out: [Outcome] = []
      for (name, content) in TamperSuiteTests.expected.sorted(by: { $0.key < $1.key }) {
        do {
          let got = try store.get(EntryName(name)).content.unprotectedBytes
          out.append(got == content ? .right : .wrong("\(name) read other bytes"))
        } catch { out.append(Self.classify(error)) }
      }
      do {
        _ = try store.get(EntryName(TamperSuiteTests.removed))
        out.append(.wrong("the removed entry came back"))
      } catch VaultError.removed {
        out.append(.right)
      } catch { out.append(Self.classify(error)) }
      do {
        let names = try store.list().map(\.name)
        out.append(
          names == TamperSuiteTests.expected.keys.sorted() ? .right : .wrong("list: \(names)"))
      } catch { out.append(Self.classify(error)) }
      do {
        let texts = try JournalStore(vault: vault, masterKey: masterKey).entries().map {
          String(decoding: $0.text.unprotectedBytes, as: UTF8.self)
        }
        out.append(texts == TamperSuiteTests.journal ? .right : .wrong("journal: \(texts)"))
      } catch { out.append(Self.classify(error)) }
      return out
    }

    func check() -> Outcome {
      do {
        _ = try IntegrityCheck.verify(opened(), masterKey: masterKey)
        return .right
      } catch { return Self.classify(error) }
    }
  }

  struct BinaryReader: Reader {
    let box: Sandbox

    func run(_ arguments: [String]) -> Subprocess.Result { box.vaultPIN(arguments) }

    static func classify(_ result: Subprocess.Result, right: Bool) -> Outcome {
      if result.status == 0 { return right ? .right : .wrong("exit 0 with other output") }
      if result.status == 17 && result.stdout.isEmpty { return .refused }
      return .wrong("exit \(result.status): \(result.stderrText)")
    }

    func reads() -> [Outcome] {
      var out: [Outcome] = []
      for (name, content) in TamperSuiteTests.expected.sorted(by: { $0.key < $1.key }) {
        let result = run(["get", name])
        out.append(Self.classify(result, right: result.stdout == content))
      }
      let removed = run(["get", TamperSuiteTests.removed])
      out.append(removed.status == 3 ? .right : Self.classify(removed, right: false))
      let list = run(["list"])
      out.append(
        Self.classify(
          list,
          right: list.stdoutText
            == TamperSuiteTests.expected.keys.sorted().map { $0 + "\n" }.joined()))
      let journal = run(["journal", "show", "today"])
      out.append(
        Self.classify(
          journal,
          right: TamperSuiteTests.journal.allSatisfy { journal.stdoutText.contains($0) }))
      return out
    }

    func check() -> Outcome {
      let result = run(["check"])
      return Self.classify(result, right: true)
    }
  }

  /// The figures of one run.
  struct Tally {
    var cases = 0
    var wrong: [String] = []
    var missed: [String] = []
    var refused = 0
    var unnoticed: [String] = []

    /// Records one case: its reads, then (only when a read was refused, the case `check` must
    /// catch) the check.
    mutating func record(_ what: String, reads: [Outcome], check: () -> Outcome) {
      cases += 1
      for case .wrong(let why) in reads { wrong.append("\(what): \(why)") }
      guard reads.contains(.refused) else {
        unnoticed.append(what)
        return
      }
      refused += 1
      switch check() {
      case .right: missed.append("\(what): check passed")
      case .wrong(let why): wrong.append("\(what): check: \(why)")
      case .refused: break
      }
    }
  }

  var box: Sandbox!
  var masterKey: SymmetricKey!
  /// The file after the last write, and after an earlier one (the material of rollbacks).
  var current: Data!
  var earlier: Data!

  static var throughBinary: Bool {
    ProcessInfo.processInfo.environment["VAULT_TAMPER_BINARY"] == "1"
  }

  override func setUpWithError() throws {
    box = Sandbox()
    let environment = box.folder.environment()
    let created = try Vault.create(
      path: box.vaultPath, pin: PIN(utf8: SecureBytes(copying: Array(Sandbox.pin.utf8))),
      kdf: .test,
      policy: .pinOnly, environment: environment)
    masterKey = created.masterKey
    let vault = created.vault
    let store = EntryStore(vault: vault, masterKey: masterKey)
    try vault.verifyState(masterKey: masterKey)
    try store.put(
      EntryName("a"), content: SecureBytes(copying: Array("alpha".utf8)), overwrite: false,
      guarded: false)
    try store.put(
      EntryName(Self.removed), content: SecureBytes(copying: Array("delta".utf8)),
      overwrite: false, guarded: false)
    let stamp = JournalStamp.local(environment.clock.wallNow)
    try JournalStore.append(
      SecureBytes(copying: Array(Self.journal[0].utf8)), to: vault, stamp: stamp)
    try JournalStore(vault: vault, masterKey: masterKey).fold()
    earlier = try Data(contentsOf: URL(fileURLWithPath: box.vaultPath))
    for (name, content) in Self.expected {
      try store.put(
        EntryName(name), content: SecureBytes(copying: content), overwrite: true, guarded: false)
    }
    try store.remove(EntryName(Self.removed))
    try JournalStore.append(
      SecureBytes(copying: Array(Self.journal[1].utf8)), to: vault, stamp: stamp)
    try JournalStore(vault: vault, masterKey: masterKey).fold()
    current = try Data(contentsOf: URL(fileURLWithPath: box.vaultPath))
  }

  override func tearDown() { box = nil }

  var reader: Reader {
    Self.throughBinary
      ? BinaryReader(box: box)
      : LibraryReader(
        path: box.vaultPath, environment: box.folder.environment(), masterKey: masterKey)
  }

  func restore(_ data: Data) throws { try data.write(to: URL(fileURLWithPath: box.vaultPath)) }

  func report(_ name: String, _ tally: Tally) {
    print(
      "tamper: \(tally.cases) \(name), \(tally.refused) refused, \(tally.wrong.count) wrong,"
        + " \(tally.missed.count) missed")
    XCTAssertEqual(tally.wrong, [], name)
    XCTAssertEqual(tally.missed, [], name)
  }

  func testTheUntouchedVaultReadsRight() throws {
    XCTAssertEqual(reader.reads(), [.right, .right, .right, .right, .right])
    XCTAssertEqual(reader.check(), .right)
  }

  /// Everything SQLite hands any read of the file, as one byte string, or nil when SQLite cannot
  /// read it all.
  ///
  /// Every row of every table with its rowid, every entry of every index (scanned through that
  /// index), the schema rows and the header pragmas; each value tagged with its type and length,
  /// so two files give the same bytes exactly when every read sees the same values. (One byte
  /// string compared with `memcmp` is what keeps 180,000 comparisons quick in a debug build.)
  static func logicalContent(_ path: String) -> [UInt8]? {
    let queries = [
      "PRAGMA application_id", "PRAGMA user_version", "SELECT * FROM sqlite_schema ORDER BY name",
      "SELECT rowid, * FROM header", "SELECT rowid, * FROM records", "SELECT rowid, * FROM chunks",
      "SELECT rowid, * FROM pending", "SELECT rowid, * FROM aggregate",
      "SELECT rowid, * FROM states",
      "SELECT record_id, rowid FROM records INDEXED BY sqlite_autoindex_records_1",
      "SELECT lookup, rowid FROM records INDEXED BY sqlite_autoindex_records_2"
        + " WHERE lookup IS NOT NULL",
      "SELECT record_id, revision, idx, rowid FROM chunks INDEXED BY sqlite_autoindex_chunks_1",
      "SELECT record_id, rowid FROM pending INDEXED BY sqlite_autoindex_pending_1",
    ]
    guard let file = try? VaultFileTamperer(path: path) else { return nil }
    // One read transaction for every query: one shared lock and one look at the file header
    // (and for a journal) instead of one per query.
    guard (try? file.execute("BEGIN")) != nil else { return nil }
    defer { _ = try? file.execute("ROLLBACK") }
    var out: [UInt8] = []
    func append(_ tag: UInt8, _ bytes: [UInt8]) {
      out.append(tag)
      withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { out.append(contentsOf: $0) }
      out.append(contentsOf: bytes)
    }
    for query in queries {
      guard let rows = try? file.execute(query) else { return nil }
      for row in rows {
        for value in row {
          switch value {
          case .blob(let bytes): append(1, bytes)
          case .integer(let number):
            withUnsafeBytes(of: number.littleEndian) { append(2, Array($0)) }
          case .text(let text): append(3, Array(text.utf8))
          case .null: append(4, [])
          }
        }
        out.append(5)  // end of a row
      }
      out.append(6)  // end of a query's rows
    }
    return out
  }

  /// True when `a` and `b` are the same bytes (`memcmp`, not an element-by-element loop).
  static func same(_ a: [UInt8]?, _ b: [UInt8]) -> Bool {
    guard let a, a.count == b.count else { return false }
    return a.withUnsafeBytes { x in
      b.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
    }
  }

  /// Every byte of the file, each flipped (XOR 0xff) in turn, in place, then put back.
  ///
  /// A flip past the 100-byte file header that leaves everything SQLite hands a read as it was
  /// (`logicalContent`: a byte of free space in a page) cannot change what any read returns; in
  /// CI those are counted without running the reads. `VAULT_TAMPER_FULL=1` runs them on every
  /// flip. The library reader shares nothing between files, so the flips are dealt out to one
  /// copy of the file per core, each flipped and read on a thread of its own (the binary reader
  /// works on the sandbox's own file, one flip at a time). Outside the stress tier every 13th byte
  /// is flipped (every byte of the 100-byte file header), a sample of every page and region.
  func testEverySingleByteFlip() throws {
    let limit = ProcessInfo.processInfo.environment["VAULT_TAMPER_LIMIT"].flatMap(Int.init)
    let full = ProcessInfo.processInfo.environment["VAULT_TAMPER_FULL"] == "1"
    let pristine = try XCTUnwrap(Self.logicalContent(box.vaultPath))
    let bytes = [UInt8](current)
    let count = min(bytes.count, limit ?? .max)
    let workers =
      Self.throughBinary ? 1 : max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
    var readers = [(path: box.vaultPath, reader: reader)]
    for worker in 1..<max(workers, 1) {
      let path = box.home + "/flips-\(worker).db"
      try current.write(to: URL(fileURLWithPath: path))
      XCTAssertEqual(chmod(path, 0o600), 0)
      readers.append(
        (
          path,
          LibraryReader(path: path, environment: box.folder.environment(), masterKey: masterKey)
        ))
    }
    let shares = FlipShares(readers)
    let started = Date()
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let (path, reader) = shares.readers[worker]
      var share = FlipShares.Share()
      let fd = open(path, O_RDWR | O_CLOEXEC)
      guard fd >= 0 else {
        share.failures.append("\(path): cannot open")
        return shares.add(share)
      }
      defer { close(fd) }
      for offset in stride(from: worker, to: count, by: workers)
      where TestTier.all || offset < 100 || offset % 13 == 0 {
        var flipped = bytes[offset] ^ 0xff
        var original = bytes[offset]
        if pwrite(fd, &flipped, 1, off_t(offset)) != 1 {
          share.failures.append("byte \(offset): the flip was not written")
        }
        if !full && offset >= 100 && Self.same(Self.logicalContent(path), pristine) {
          share.unchanged += 1
          share.tally.cases += 1
        } else {
          share.tally.record("byte \(offset)", reads: reader.reads()) { reader.check() }
        }
        if pwrite(fd, &original, 1, off_t(offset)) != 1 {
          share.failures.append("byte \(offset): the original byte was not put back")
        }
      }
      shares.add(share)
    }
    let total = shares.total
    XCTAssertEqual(total.failures, [])
    print(
      String(
        format: "tamper: flips took %.1f s on %d threads; %d left every row and index as it was%@",
        Date().timeIntervalSince(started), workers, total.unchanged, full ? "" : " (not read)"))
    report("flips of \(bytes.count) bytes", total.tally)
  }

  /// The files and readers of the threads of `testEverySingleByteFlip` (each thread uses only its
  /// own), and what they found, added up under a lock.
  final class FlipShares: @unchecked Sendable {
    struct Share {
      var tally = Tally()
      var unchanged = 0
      var failures: [String] = []
    }

    let readers: [(path: String, reader: Reader)]
    private let lock = NSLock()
    private var sum = Share()

    init(_ readers: [(path: String, reader: Reader)]) { self.readers = readers }

    func add(_ share: Share) {
      lock.lock()
      defer { lock.unlock() }
      sum.tally.cases += share.tally.cases
      sum.tally.refused += share.tally.refused
      sum.tally.wrong += share.tally.wrong
      sum.tally.missed += share.tally.missed
      sum.tally.unnoticed += share.tally.unnoticed
      sum.unchanged += share.unchanged
      sum.failures += share.failures
    }

    var total: Share {
      lock.lock()
      defer { lock.unlock() }
      return sum
    }
  }

  /// The rows of each table of the file at `path`, keyed by table and primary key.
  static func rows(_ path: String) throws -> [String: [[VaultFileTamperer.Value]]] {
    let file = try VaultFileTamperer(path: path)
    var out: [String: [[VaultFileTamperer.Value]]] = [:]
    for (table, _) in tables { out[table] = try file.execute("SELECT * FROM \(table)") }
    return out
  }

  /// Each table and the number of its primary-key columns (first in its column order).
  static let tables = [
    ("header", 1), ("records", 1), ("chunks", 3), ("pending", 1), ("aggregate", 1), ("states", 1),
  ]

  static let keyNames = [
    "header": ["id"], "records": ["record_id"], "chunks": ["record_id", "revision", "idx"],
    "pending": ["record_id"], "aggregate": ["id"], "states": ["generation"],
  ]

  /// Every deletion of one row, every resurrection and rollback of one row from the earlier file,
  /// the whole earlier file, its header, and planted schema objects.
  func testEverySQLDeletionResurrectionRollbackAndPlantedObject() throws {
    let earlierPath = box.home + "/earlier.db"
    try earlier.write(to: URL(fileURLWithPath: earlierPath))
    let now = try Self.rows(box.vaultPath)
    let before = try Self.rows(earlierPath)
    var mutations: [(String, (VaultFileTamperer) throws -> Void)] = []
    for (table, keyCount) in Self.tables {
      let names = Self.keyNames[table] ?? []
      let condition = names.map { "\($0) IS ?" }.joined(separator: " AND ")
      let current = now[table] ?? []
      let newest = current.compactMap { row -> Int64? in
        if case .integer(let generation) = row.first { return generation }
        return nil
      }.max()
      for row in current {
        let older = table == "states" && row.first != newest.map { .integer($0) }
        mutations.append(
          (
            older ? "delete an older state" : "delete a \(table) row",
            {
              _ = try $0.execute(
                "DELETE FROM \(table) WHERE \(condition)", Array(row.prefix(keyCount)))
            }
          ))
      }
      for row in before[table] ?? [] where !current.contains(row) {
        let key = Array(row.prefix(keyCount))
        let placeholders = row.map { _ in "?" }.joined(separator: ", ")
        let exists = current.contains { Array($0.prefix(keyCount)) == key }
        mutations.append(
          (
            (exists ? "roll back a \(table) row" : "resurrect a \(table) row"),
            {
              _ = try $0.execute("DELETE FROM \(table) WHERE \(condition)", key)
              _ = try $0.execute("INSERT INTO \(table) VALUES (\(placeholders))", row)
            }
          ))
      }
    }
    XCTAssertEqual(before["header"], now["header"], "StateAttackTests rolls back a header")
    for object in [
      "CREATE TRIGGER keep BEFORE DELETE ON records BEGIN SELECT RAISE(IGNORE); END",
      "CREATE TRIGGER undo AFTER UPDATE ON header BEGIN UPDATE header SET body = old.body; END",
      "CREATE VIEW everything AS SELECT * FROM records", "CREATE INDEX by_kind ON records (kind)",
      "CREATE TABLE extra (x)",
    ] {
      mutations.append(("plant: \(object.prefix(24))", { _ = try $0.execute(object) }))
    }
    var tally = Tally()
    var passedCheck: [String] = []
    let reader = self.reader
    for (what, mutate) in mutations + [("the whole earlier file", { _ in })] {
      try restore(what == "the whole earlier file" ? earlier : current)
      try mutate(VaultFileTamperer(path: box.vaultPath))
      tally.record(what, reads: reader.reads()) { reader.check() }
      if reader.check() == .right { passedCheck.append(what) }
    }
    // A read hits every change but a deleted chunk of a kept revision (which no read asks for)
    // and an older state deleted (kept only to walk back to a descendant); `check` refuses
    // every change but the latter. (Old revisions' chunks are kept, so none is resurrected.)
    XCTAssertEqual(
      Set(tally.unnoticed), ["delete a chunks row", "delete an older state"],
      "\(tally.unnoticed)")
    XCTAssertEqual(Set(passedCheck), ["delete an older state"], "\(passedCheck)")
    report("SQL-level changes", tally)
  }
}
