import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// Two devices (two throwaway homes with their own device state) and one bare repository on
/// local disk, for `vault sync`.
final class SyncPair {
  let a: Sandbox
  let b: Sandbox
  /// The remote: a path that `sync init` makes into a bare repository.
  let remote: String
  var recoveryCode = ""
  static let pinB = "135790"

  /// - Parameter spawning: run the built binaries (a test whose git kills its parent).
  init(spawning: Bool = false) {
    a = Sandbox(spawning: spawning)
    b = Sandbox(spawning: spawning)
    remote = a.home + "/remote.git"
  }

  /// A PIN-only vault on A, its recovery code kept.
  func initA(file: StaticString = #filePath, line: UInt = #line) {
    let created = a.vault(["init", "--kdf", "test", "--no-biometry"], pin: [Sandbox.pin])
    XCTAssertEqual(created.status, 0, created.stderrText, file: file, line: line)
    let lines = created.errorLines
    let heading = lines.firstIndex(of: Context.recoveryCodeHeading) ?? lines.count
    recoveryCode = heading + 1 < lines.count ? lines[heading + 1] : ""
  }

  /// B joins as a device that copied A's vault file and recovered it with the code (its own
  /// PIN keyslot and device record), then syncs with the remote.
  func joinB(file: StaticString = #filePath, line: UInt = #line) {
    let folder = (b.vaultPath as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try? FileManager.default.copyItem(atPath: a.vaultPath, toPath: b.vaultPath)
    let recovered = b.vault(["recover"], pin: [recoveryCode, Self.pinB])
    XCTAssertEqual(recovered.status, 0, recovered.stderrText, file: file, line: line)
    let joined = syncB(["sync", "init", remote])
    XCTAssertEqual(joined.status, 0, joined.stderrText, file: file, line: line)
  }

  /// A with one entry (`mail/work`, `hunter2`) synced to the remote, B joined, and A synced
  /// again so it knows B.
  func twoSynced(file: StaticString = #filePath, line: UInt = #line) {
    initA(file: file, line: line)
    add(a, "mail/work", Array("hunter2".utf8), file: file, line: line)
    XCTAssertEqual(syncA(["sync", "init", remote]).status, 0, file: file, line: line)
    joinB(file: file, line: line)
    XCTAssertEqual(syncA().status, 0, file: file, line: line)
  }

  /// A's vault opened with its PIN, as a client that holds the master key opens it (the
  /// attacking device of the attack tests, played in this process with the library).
  func openA() throws -> (vault: Vault, key: SymmetricKey) { try open(a, pin: Sandbox.pin) }

  /// `box`'s vault opened with `pin` in this process, as `openA`.
  func open(_ box: Sandbox, pin: String) throws -> (vault: Vault, key: SymmetricKey) {
    let vault = try Vault.open(
      path: box.vaultPath, environment: VaultEnvironment(variables: box.environment))
    let key = try vault.unlock(pin: PIN(utf8: SecureBytes(copying: Array(pin.utf8))))
    try vault.verifyState(masterKey: key)
    return (vault, key)
  }

  /// `twoSynced`, and B synced after A, so both hold the same header and the same records.
  func inStep(file: StaticString = #filePath, line: UInt = #line) {
    twoSynced(file: file, line: line)
    XCTAssertEqual(syncB().status, 0, file: file, line: line)
  }

  @discardableResult
  func syncA(_ arguments: [String] = ["sync"], env: [String: String] = [:]) -> Subprocess.Result {
    a.vaultPIN(arguments, env: env)
  }

  /// `vault sync revoke ARGUMENTS` on `box` with `pin` and the recovery code in force (`code`,
  /// else the one `initA` showed).
  func revoke(
    _ box: Sandbox, _ arguments: [String], pin: String = Sandbox.pin, code: String? = nil,
    env: [String: String] = [:]
  ) -> Subprocess.Result {
    box.vault(["sync", "revoke"] + arguments, pin: [pin, code ?? recoveryCode], env: env)
  }

  /// B's `vault sync`, asserted refused: exit 17, the last line "vault: error: the sync remote
  /// was refused: REASON; nothing was merged", and B's vault file byte for byte as before.
  func assertSyncBRefused(_ reason: String, file: StaticString = #filePath, line: UInt = #line) {
    let before = try? Data(contentsOf: URL(fileURLWithPath: b.vaultPath))
    let refused = syncB()
    XCTAssertEqual(refused.status, 17, refused.stderrText, file: file, line: line)
    XCTAssertEqual(
      refused.errorLines.last { $0.hasPrefix("vault: error: ") },
      "vault: error: the sync remote was refused: \(reason); nothing was merged", file: file,
      line: line)
    XCTAssertEqual(
      try? Data(contentsOf: URL(fileURLWithPath: b.vaultPath)), before, "B's vault changed",
      file: file, line: line)
  }

  @discardableResult
  func syncB(_ arguments: [String] = ["sync"], env: [String: String] = [:]) -> Subprocess.Result {
    b.vault(arguments, pin: [Self.pinB], env: env)
  }

  func add(
    _ box: Sandbox, _ name: String, _ content: [UInt8], file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let result = box.vault(
      ["add", "--force", name], stdin: content, pin: [box === a ? Sandbox.pin : Self.pinB])
    XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
  }

  func read(_ box: Sandbox, _ arguments: [String]) -> Subprocess.Result {
    box.vault(arguments, pin: [box === a ? Sandbox.pin : Self.pinB])
  }

  /// Runs git on the remote (or `--git-dir` elsewhere).
  @discardableResult
  func git(_ arguments: [String], in folder: String? = nil, stdin: [UInt8]? = nil)
    -> Subprocess.Result
  {
    Subprocess.run(
      "/usr/bin/git", (folder == nil ? ["--git-dir=" + remote] : []) + arguments,
      environment: ["PATH": "/usr/bin:/bin", "HOME": a.home, "GIT_CONFIG_NOSYSTEM": "1"],
      stdin: stdin, directory: folder)
  }

  /// The remote branch's commit.
  var head: String { git(["rev-parse", "vault"]).stdoutText.trimmingCharacters(in: .newlines) }

  /// Commits `edit` to the remote as someone with write access to it would: a clone, the
  /// edit on its working tree, a commit and a forced push.
  func tamperRemote(
    file: StaticString = #filePath, line: UInt = #line, _ edit: (String) throws -> Void
  ) {
    let work = a.home + "/tamper-\(UUID().uuidString)"
    XCTAssertEqual(
      git(["clone", "-q", "-b", "vault", remote, work], in: a.home).status, 0, file: file,
      line: line)
    XCTAssertNoThrow(try edit(work), file: file, line: line)
    git(["add", "-A"], in: work)
    git(["-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "x"], in: work)
    let pushed = git(["push", "-q", "-f", "origin", "vault"], in: work)
    XCTAssertEqual(pushed.status, 0, pushed.stderrText, file: file, line: line)
  }

  /// The record files of the remote's tree.
  func recordFiles(in work: String) -> [String] {
    let records = work + "/records"
    return (FileManager.default.subpaths(atPath: records) ?? []).filter { $0.count > 3 }
      .map { records + "/" + $0 }
  }
}

/// `vault sync` through the built binaries: one device with push and pull, a second device
/// that joins by a copied file and the recovery code, and the refusal of a bad remote.
final class SyncCLITests: XCTestCase {
  var pair: SyncPair!
  override func setUpWithError() throws {
    try TestTier.requireSystem("real git")
    pair = SyncPair()
  }
  override func tearDown() { pair = nil }

  func testInitMakesTheRemotePushesTheVaultAndASecondSyncIsUpToDate() {
    pair.initA()
    pair.add(pair.a, "mail/work", Array("hunter2".utf8))
    let made = pair.syncA(["sync", "init", pair.remote])
    XCTAssertEqual(made.status, 0, made.stderrText)
    XCTAssertEqual(
      made.errorLines,
      [
        "Made a new bare repository at \(pair.remote).",
        "Synced with \(pair.remote): 0 records received, 3 files sent (commit"
          + " \(pair.head.prefix(12))).",
      ])
    XCTAssertEqual(
      pair.git(["log", "--format=%an <%ae> %at|%cn <%ce> %ct|%s", "vault"]).stdoutText,
      "vault <vault@localhost> 0|vault <vault@localhost> 0|vault sync\n")
    let files = pair.git(["ls-tree", "-r", "--name-only", "vault"]).stdoutText
      .split(separator: "\n").map(String.init)
    XCTAssertEqual(files.count, 4, "\(files)")
    XCTAssertEqual(files.first, ".gitattributes")
    XCTAssertEqual(files.last, "state")
    XCTAssertTrue(files[1].hasPrefix("contents/"), "\(files)")
    XCTAssertTrue(files[2].hasPrefix("records/"), "\(files)")
    XCTAssertEqual(pair.git(["show", "vault:.gitattributes"]).stdoutText, "* binary\n")
    // The sync repository beside the vault is private.
    var info = stat()
    XCTAssertEqual(stat(pair.a.vaultPath + ".sync", &info), 0)
    XCTAssertEqual(info.st_mode & 0o777, 0o700)

    let again = pair.syncA()
    XCTAssertEqual(again.status, 0, again.stderrText)
    XCTAssertEqual(
      again.errorLines, ["Up to date with \(pair.remote) (commit \(pair.head.prefix(12)))."])
    XCTAssertEqual(pair.git(["rev-list", "--count", "vault"]).stdoutText, "1\n")
  }

  func testASecondDeviceReadsWhatTheFirstSyncedByteExact() {
    pair.initA()
    let binary: [UInt8] = [0, 1, 2, 255, 10, 13, 0] + Array("tail".utf8)
    pair.add(pair.a, "bin/blob", binary)
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    XCTAssertEqual(pair.read(pair.b, ["get", "bin/blob"]).stdout, binary)

    // Changes on A reach B: an add, an edit, a rename, a removal and a journal entry.
    pair.add(pair.a, "new/one", Array("first".utf8))
    pair.add(pair.a, "bin/blob", Array("edited".utf8))
    XCTAssertEqual(pair.read(pair.a, ["mv", "new/one", "new/renamed"]).status, 0)
    let journal = pair.a.vault(["journal"], stdin: Array("a day by the river\n".utf8))
    XCTAssertEqual(journal.status, 0, journal.stderrText)
    let pushed = pair.syncA()
    XCTAssertEqual(pushed.status, 0, pushed.stderrText)
    let pulled = pair.syncB()
    XCTAssertEqual(pulled.status, 0, pulled.stderrText)
    XCTAssertEqual(pair.read(pair.b, ["list"]).stdoutText, "bin/blob\nnew/renamed\n")
    XCTAssertEqual(pair.read(pair.b, ["get", "bin/blob"]).stdoutText, "edited")
    XCTAssertEqual(pair.read(pair.b, ["get", "bin/blob", "--revision", "1"]).stdout, binary)
    let shown = pair.read(pair.b, ["journal", "list", "--json"]).stdoutText
    XCTAssertTrue(shown.contains("a day by the river"), shown)

    // And B's back to A: a removal, with its history.
    XCTAssertEqual(pair.read(pair.b, ["rm", "new/renamed"]).status, 0)
    XCTAssertEqual(pair.syncB().status, 0)
    let back = pair.syncA()
    XCTAssertEqual(back.status, 0, back.stderrText)
    XCTAssertEqual(pair.read(pair.a, ["list"]).stdoutText, "bin/blob\n")
    XCTAssertEqual(pair.read(pair.a, ["restore", "new/renamed"]).status, 0)
    XCTAssertEqual(pair.read(pair.a, ["get", "new/renamed"]).stdoutText, "first")
    for box in [pair.a, pair.b] {
      let checked = pair.read(box, ["check"])
      XCTAssertEqual(checked.status, 0, checked.stderrText)
    }
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertEqual(pair.read(pair.b, ["get", "new/renamed"]).stdoutText, "first")
  }

  /// No name, content or journal text used appears in any commit, file or object of the
  /// repository (its objects are read decompressed).
  func testTheRepositoryHoldsNoNameContentOrJournalText() {
    pair.initA()
    pair.add(pair.a, "MARKERNAMEalpha/site", Array("MARKERCONTENTsecret".utf8))
    pair.add(pair.a, "MARKERNAMEbeta", Array(repeating: UInt8(ascii: "Q"), count: 70_000))
    XCTAssertEqual(
      pair.a.vault(["journal"], stdin: Array("MARKERJOURNAL text\n".utf8)).status, 0)
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    XCTAssertEqual(pair.read(pair.b, ["mv", "MARKERNAMEbeta", "MARKERNAMEgamma"]).status, 0)
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertEqual(pair.syncA().status, 0)
    let everything =
      pair.git(["log", "-p", "--all", "--format=fuller"]).stdout
      + pair.git(["cat-file", "--batch-all-objects", "--batch"]).stdout
    XCTAssertGreaterThan(everything.count, 70_000)
    for marker in ["MARKER", "QQQQQQQQ", "alpha", "secret", "river", "journal text"] {
      XCTAssertNil(
        everything.firstRange(of: Array(marker.utf8)), "\(marker) appears in the repository")
    }
    let names = pair.git(["ls-tree", "-r", "--name-only", "vault"]).stdoutText
    XCTAssertNil(names.range(of: "MARKER"))
    XCTAssertEqual(
      Set(pair.git(["log", "--format=%s|%an|%at", "vault"]).stdoutText.split(separator: "\n")),
      ["vault sync|vault|0"])
  }

  /// A clone killed (SIGKILL) after the vault file was made and before this device had its PIN
  /// leaves a file no PIN here opens: the next `vault sync clone` removes it and starts again.
  func testACloneKilledBeforeItsPINIsDoneAgainByTheNextClone() {
    pair.initA()
    pair.add(pair.a, "mail/work", Array("hunter2".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    let killed = pair.b.vault(
      ["sync", "clone", pair.remote], pin: [pair.recoveryCode, SyncPair.pinB],
      env: ["VAULT_TEST_CRASH": "clone-after-file"])
    XCTAssertEqual(killed.status, 137, killed.stderrText)
    XCTAssertTrue(FileManager.default.fileExists(atPath: pair.b.vaultPath))
    let stranded = pair.b.vault(["get", "mail/work"], pin: [SyncPair.pinB])
    XCTAssertEqual(stranded.status, 11)
    // New-user review: the hint names the clone, not 'vault recover'.
    XCTAssertEqual(
      stranded.errorLines.last,
      "vault: hint: an unfinished 'vault sync clone' made this file; run 'vault sync clone REMOTE'"
        + " again")
    let again = pair.b.vault(
      ["sync", "clone", pair.remote], pin: [pair.recoveryCode, SyncPair.pinB])
    XCTAssertEqual(again.status, 0, again.stderrText)
    XCTAssertEqual(
      again.errorLines.first,
      "vault: note: removed what an unfinished 'vault sync clone' left (\(pair.b.vaultPath) and"
        + " its sync repository); cloning again")
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: pair.b.vaultPath + ".sync/vault-clone-unfinished"))
    // A finished clone is never removed: a second clone is refused.
    let third = pair.b.vault(
      ["sync", "clone", pair.remote], pin: [pair.recoveryCode, SyncPair.pinB])
    XCTAssertEqual(third.status, 4, third.stderrText)
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "hunter2")
  }

  /// New-user review: a sync repository left without its vault file (a killed clone's git
  /// still writing) is in the way of a clone, which says so (exit 4), not "use 'vault sync'".
  func testACloneSaysASyncRepositoryWithoutItsVaultIsInTheWay() throws {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    let folder = pair.b.vaultPath + ".sync"
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let cloned = pair.b.vault(
      ["sync", "clone", pair.remote], pin: [pair.recoveryCode, SyncPair.pinB])
    XCTAssertEqual(cloned.status, 4, cloned.stderrText)
    XCTAssertEqual(
      cloned.errorLines,
      [
        "vault: error: \(folder) is left from an earlier sync of a vault that is no longer there",
        "vault: hint: remove that folder, then run 'vault sync clone' again",
      ])
    try FileManager.default.removeItem(atPath: folder)
    XCTAssertEqual(
      pair.b.vault(["sync", "clone", pair.remote], pin: [pair.recoveryCode, SyncPair.pinB]).status,
      0)
  }

  /// New-user review: a device that held the vault before (its file and sync repository lost)
  /// joins again with `vault sync clone`; the state its device remembered of the old file
  /// refused the new one ("older than the one this device last saw"), on every try.
  func testADeviceThatLostItsFileClonesAgain() throws {
    pair.twoSynced()
    XCTAssertEqual(pair.syncB().status, 0)
    pair.add(pair.b, "written/on-b", Array("kept".utf8))
    XCTAssertEqual(pair.syncB().status, 0)
    try FileManager.default.removeItem(atPath: pair.b.vaultPath)
    try FileManager.default.removeItem(atPath: pair.b.vaultPath + ".sync")
    let cloned = pair.b.vault(
      ["sync", "clone", pair.remote], pin: [pair.recoveryCode, SyncPair.pinB])
    XCTAssertEqual(cloned.status, 0, cloned.stderrText)
    XCTAssertEqual(pair.read(pair.b, ["get", "written/on-b"]).stdoutText, "kept")
    XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0)
    XCTAssertEqual(pair.syncA().status, 0)
  }

  /// A new device joins with `vault sync clone` and the recovery code: its own PIN keyslot,
  /// journal writer and device record, which the other device learns of.
  func testADeviceJoinsByCloneWithTheRecoveryCode() throws {
    pair.initA()
    pair.add(pair.a, "mail/work", [0, 1, 2, 3])
    XCTAssertEqual(pair.a.vault(["journal"], stdin: Array("written on A\n".utf8)).status, 0)
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)

    // A wrong code is refused before anything is made; so is a typo.
    let wrong = pair.b.vault(
      ["sync", "clone", pair.remote],
      pin: ["0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ-ME3R", "135790"])
    XCTAssertEqual(wrong.status, 11, wrong.stderrText)
    XCTAssertFalse(FileManager.default.fileExists(atPath: pair.b.vaultPath))
    XCTAssertFalse(FileManager.default.fileExists(atPath: pair.b.vaultPath + ".sync"))
    // New-user review: a new PIN refused after the vault file was made leaves nothing behind,
    // so the clone can simply be run again.
    let short = pair.b.vault(["sync", "clone", pair.remote], pin: [pair.recoveryCode, "12"])
    XCTAssertEqual(short.status, 5, short.stderrText)
    XCTAssertEqual(
      Array(short.errorLines.suffix(2)),
      [
        "vault: note: removed the new vault file and its sync repository; run 'vault sync clone'"
          + " again",
        "vault: error: a new PIN needs at least 6 characters",
      ])
    XCTAssertFalse(FileManager.default.fileExists(atPath: pair.b.vaultPath))
    XCTAssertFalse(FileManager.default.fileExists(atPath: pair.b.vaultPath + ".sync"))

    let cloned = pair.b.vault(
      ["sync", "clone", pair.remote], pin: [pair.recoveryCode, SyncPair.pinB])
    XCTAssertEqual(cloned.status, 0, cloned.stderrText)
    XCTAssertEqual(
      cloned.errorLines.first,
      "Made \(pair.b.vaultPath) from \(pair.remote) (commit \(String(pair.git(["rev-parse", "vault^"]).stdoutText.prefix(12))), 4 files)."
    )
    XCTAssertEqual(cloned.errorLines[1], "New PIN set for this machine; every session was revoked.")
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdout, [0, 1, 2, 3])
    XCTAssertTrue(pair.read(pair.b, ["journal", "list"]).stdoutText.contains("written on A"))
    XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0)
    // B's own PIN and journal writer; A learns of B and reads what B writes.
    XCTAssertEqual(pair.b.vault(["get", "mail/work"], pin: [Sandbox.pin]).status, 11)
    XCTAssertEqual(pair.b.vault(["journal"], stdin: Array("written on B\n".utf8)).status, 0)
    pair.add(pair.b, "from/b", Array("bee".utf8))
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.read(pair.a, ["get", "from/b"]).stdoutText, "bee")
    XCTAssertTrue(pair.read(pair.a, ["journal", "list"]).stdoutText.contains("written on B"))
    XCTAssertEqual(pair.read(pair.a, ["check"]).status, 0)
    let status = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(pair.a.vault(["status", "--json"]).stdout))
        as? [String: Any])
    XCTAssertNotNil(status["policy"])
    // A second clone over an existing vault is refused.
    let again = pair.b.vault(
      ["sync", "clone", pair.remote], pin: [pair.recoveryCode, SyncPair.pinB])
    XCTAssertEqual(again.status, 4, again.stderrText)
  }

  func testATamperedTruncatedOrRemovedFileIsRefusedAndNothingIsMerged() throws {
    pair.initA()
    pair.add(pair.a, "kept", Array("one".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    pair.add(pair.a, "later", Array("two".utf8))
    XCTAssertEqual(pair.syncA().status, 0)
    let good = pair.head
    let edits: [(String, (String) throws -> Void)] = [
      (
        "a byte changed",
        { work in
          let path = try XCTUnwrap(self.pair.recordFiles(in: work).first)
          var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
          bytes[bytes.count / 2] ^= 1
          try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
      ),
      (
        "a file truncated",
        { work in
          let path = try XCTUnwrap(self.pair.recordFiles(in: work).first)
          let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
          try bytes.prefix(bytes.count - 20).write(to: URL(fileURLWithPath: path))
        }
      ),
      (
        "a file removed",
        { work in
          let path = try XCTUnwrap(self.pair.recordFiles(in: work).first)
          try FileManager.default.removeItem(atPath: path)
        }
      ),
      (
        "a file added",
        { work in
          // A copy of a record under a name of the same form: the state names no such file.
          let path = try XCTUnwrap(self.pair.recordFiles(in: work).first)
          let folder = work + "/records/ab"
          try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true)
          try FileManager.default.copyItem(
            atPath: path, toPath: folder + "/" + String(repeating: "ab", count: 16))
        }
      ),
    ]
    for (what, edit) in edits {
      XCTAssertEqual(pair.git(["update-ref", "refs/heads/vault", good]).status, 0)
      pair.tamperRemote(edit)
      let refused = pair.syncB()
      XCTAssertEqual(refused.status, 17, "\(what): \(refused.stderrText)")
      XCTAssertTrue(
        refused.stderrText.hasPrefix("vault: error: the sync remote was refused: "),
        "\(what): \(refused.stderrText)")
      XCTAssertTrue(refused.stderrText.hasSuffix("; nothing was merged\n"), refused.stderrText)
      if what == "a file added" {
        XCTAssertEqual(
          refused.errorLines.last,
          "vault: error: the sync remote was refused: its files are not the ones its state names"
            + " (a file was added, changed, removed or put back); nothing was merged")
      }
      // Nothing of the remote was merged.
      XCTAssertEqual(pair.read(pair.b, ["list"]).stdoutText, "kept\n", what)
      XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0, what)
    }
    // The remote put right, the next sync completes.
    XCTAssertEqual(pair.git(["update-ref", "refs/heads/vault", good]).status, 0)
    let healed = pair.syncB()
    XCTAssertEqual(healed.status, 0, healed.stderrText)
    XCTAssertEqual(pair.read(pair.b, ["list"]).stdoutText, "kept\nlater\n")
  }

  /// New-user review: two syncs of one vault at once (the user's and a background one) raced
  /// for git's refs, and one failed with git's lock error (exit 21); the second now waits for
  /// the first and both complete.
  func testTwoSyncsAtOnceOnOneDeviceBothComplete() {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    for round in 0..<3 {
      pair.add(pair.a, "round/\(round)", Array("r\(round)".utf8))
      let results = Results()
      let (environment, home) = (pair.a.environment, pair.a.home)
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        results.add(
          Subprocess.run(
            Sandbox.binDirectory + "/vault", ["sync", "--pin-fd", "3"], environment: environment,
            stdin: nil, extra: (fd: 3, data: Array((Sandbox.pin + "\n").utf8)), directory: home))
      }
      XCTAssertEqual(results.all.count, 2)
      for result in results.all {
        XCTAssertEqual(result.status, 0, "round \(round): \(result.stderrText)")
      }
    }
    pair.joinB()
    XCTAssertEqual(
      pair.read(pair.b, ["list"]).stdoutText, "round/0\nround/1\nround/2\n")
  }

  /// The results of commands run on several threads, gathered under a lock.
  final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Subprocess.Result] = []

    func add(_ result: Subprocess.Result) {
      lock.lock()
      defer { lock.unlock() }
      items.append(result)
    }

    var all: [Subprocess.Result] {
      lock.lock()
      defer { lock.unlock() }
      return items
    }
  }

  /// New-user review: `vault sync init` after the repository was removed refuses an older remote.
  ///
  /// It started again from a rolled-back remote without a base, and an entry removed since came
  /// back on every device. What the device synced last still bounds the remote.
  func testSyncInitAfterTheRepositoryWasRemovedRefusesAnOlderRemote() throws {
    pair.initA()
    pair.add(pair.a, "zombie", Array("z".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    let old = pair.head
    XCTAssertEqual(pair.syncA(["rm", "zombie"]).status, 0)
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.git(["update-ref", "refs/heads/vault", old]).status, 0)
    try FileManager.default.removeItem(atPath: GitRepository.path(forVault: pair.a.vaultPath))
    let refused = pair.syncA(["sync", "init", pair.remote])
    XCTAssertEqual(refused.status, 17, refused.stderrText)
    XCTAssertTrue(
      refused.stderrText.contains(
        "the sync remote was refused: it is older than commit "), refused.stderrText)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: GitRepository.path(forVault: pair.a.vaultPath)))
    XCTAssertEqual(pair.read(pair.a, ["get", "zombie"]).status, 3)
    // A new, empty remote takes the whole vault.
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote + "-new.git"]).status, 0)
    XCTAssertEqual(pair.read(pair.a, ["list"]).stdoutText, "")
  }

  func testARolledBackRemoteIsRefused() {
    pair.initA()
    pair.add(pair.a, "first", Array("1".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    let old = pair.head
    pair.add(pair.a, "second", Array("2".utf8))
    XCTAssertEqual(pair.syncA().status, 0)
    // The branch put back to the older commit, and a deleted branch.
    let last = pair.head
    XCTAssertEqual(pair.git(["update-ref", "refs/heads/vault", old]).status, 0)
    let refused = pair.syncA()
    XCTAssertEqual(refused.status, 17, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: the sync remote was refused: it is older than commit \(last.prefix(12)),"
          + " which this device synced (the remote was rolled back or forked); nothing was merged",
        "vault: hint: if the remote was restored from an older copy on purpose, push that commit"
          + " back to it: git --git-dir=VAULT.sync push --force origin COMMIT:refs/heads/vault"
          + " (vault(1) SYNC)",
      ])
    // New-user review: the repair vault(1) gives, from the commit the refusal names.
    let repaired = pair.git(
      [
        "--git-dir=" + pair.a.vaultPath + ".sync", "push", "-q", "--force", "origin",
        "\(last.prefix(12)):refs/heads/vault",
      ], in: pair.a.home)
    XCTAssertEqual(repaired.status, 0, repaired.stderrText)
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.git(["update-ref", "-d", "refs/heads/vault"]).status, 0)
    let deleted = pair.syncA()
    XCTAssertEqual(deleted.status, 17, deleted.stderrText)
    XCTAssertTrue(
      deleted.stderrText.contains("the remote has no vault branch"), deleted.stderrText)
    XCTAssertEqual(pair.read(pair.a, ["list"]).stdoutText, "first\nsecond\n")
  }

  func testAnotherVaultsRemoteIsRefusedAndSyncCanBeSetUpAgain() {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.b.initPINOnly()
    let refused = pair.b.vaultPIN(["sync", "init", pair.remote])
    XCTAssertEqual(refused.status, 17, refused.stderrText)
    XCTAssertEqual(
      refused.stderrText,
      "vault: error: the sync remote was refused: the sync repository holds another vault;"
        + " nothing was merged\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: pair.b.vaultPath + ".sync"))
    // The remote made for it stays the first vault's.
    XCTAssertEqual(pair.syncA().status, 0)
  }

  func testSetupErrorsAndGitFailures() throws {
    pair.initA()
    let notSetUp = pair.syncA()
    XCTAssertEqual(notSetUp.status, 21, notSetUp.stderrText)
    XCTAssertEqual(
      notSetUp.stderrText,
      "vault: error: sync failed: this vault is not set up for sync (no \(pair.a.vaultPath).sync);"
        + " run 'vault sync init REMOTE' first; nothing was merged\n")
    let noGit = pair.syncA(["sync", "init", pair.remote], env: ["PATH": "/nonexistent"])
    XCTAssertEqual(noGit.status, 21, noGit.stderrText)
    XCTAssertTrue(noGit.stderrText.contains("'git' was not found on PATH"), noGit.stderrText)
    // A remote git cannot read: no repository is left behind.
    let notARepository = pair.a.home + "/file"
    try Data("x".utf8).write(to: URL(fileURLWithPath: notARepository))
    let unreadable = pair.syncA(["sync", "init", notARepository])
    XCTAssertEqual(unreadable.status, 21, unreadable.stderrText)
    XCTAssertTrue(
      unreadable.stderrText.hasPrefix("vault: error: sync failed: git fetch exited with"),
      unreadable.stderrText)
    XCTAssertFalse(FileManager.default.fileExists(atPath: pair.a.vaultPath + ".sync"))
    let empty = pair.syncA(["sync", "init", ""])
    XCTAssertEqual(empty.status, 5)
    XCTAssertEqual(
      empty.stderrText, "vault: error: REMOTE must be a git remote: a path or a URL\n")
    // New-user review: a mistyped folder is said, not made with all its parents.
    let mistyped = pair.syncA(["sync", "init", pair.a.home + "/sycn/vault.git"])
    XCTAssertEqual(mistyped.status, 5, mistyped.stderrText)
    XCTAssertEqual(
      mistyped.stderrText,
      "vault: error: the folder \(pair.a.home)/sycn does not exist; create it first, or give the"
        + " path of an existing repository\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: pair.a.home + "/sycn"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: pair.a.vaultPath + ".sync"))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    // Set up already: exit 4, as for anything that exists, not a git failure (21).
    let twice = pair.syncA(["sync", "init", pair.remote])
    XCTAssertEqual(twice.status, 4, twice.stderrText)
    XCTAssertEqual(
      twice.errorLines,
      [
        "vault: error: this vault already syncs with \(pair.remote) (its sync repository"
          + " \(pair.a.vaultPath).sync exists)",
        "vault: hint: run 'vault sync'; to sync with another remote, remove that folder first",
      ])
  }

  /// A rotation renames and re-seals every file: the next push replaces the whole tree, and
  /// nothing of the old files stays in it.
  func testASyncAfterARotationReplacesTheWholeTree() throws {
    pair.initA()
    pair.add(pair.a, "kept", Array("one".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    let before = Set(
      pair.git(["ls-tree", "-r", "--name-only", "vault"]).stdoutText.split(separator: "\n"))
    _ = try RekeyCLITests.rekey(pair.a)
    let after = pair.syncA()
    XCTAssertEqual(after.status, 0, after.stderrText)
    let files = Set(
      pair.git(["ls-tree", "-r", "--name-only", "vault"]).stdoutText.split(separator: "\n"))
    XCTAssertEqual(before.intersection(files), [".gitattributes", "state"])
    XCTAssertEqual(files.count, before.count)
    XCTAssertEqual(
      pair.syncA().errorLines, ["Up to date with \(pair.remote) (commit \(pair.head.prefix(12)))."])
    XCTAssertEqual(pair.read(pair.a, ["check"]).status, 0)
  }

  /// A sync killed after its merge, after its commit or after its push (before recording it)
  /// leaves both the vault and the repository usable, and the next sync completes.
  func testASyncKilledAnywhereIsCompletedByTheNext() {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    var expected: [String] = []
    for (index, point) in ["sync-after-merge", "sync-after-commit", "sync-after-push"].enumerated()
    {
      pair.add(pair.a, "from-a/\(index)", Array("a\(index)".utf8))
      pair.add(pair.b, "from-b/\(index)", Array("b\(index)".utf8))
      expected += ["from-a/\(index)", "from-b/\(index)"]
      XCTAssertEqual(pair.syncA().status, 0)
      let killed = pair.syncB(env: ["VAULT_TEST_CRASH": point])
      XCTAssertEqual(killed.status, 137, "\(point): \(killed.stderrText)")
      XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0, point)
      let next = pair.syncB()
      XCTAssertEqual(next.status, 0, "\(point): \(next.stderrText)")
      XCTAssertEqual(pair.syncA().status, 0, point)
      for box in [pair.a, pair.b] {
        XCTAssertEqual(
          pair.read(box, ["list"]).stdoutText, expected.sorted().joined(separator: "\n") + "\n",
          point)
      }
    }
    XCTAssertEqual(pair.git(["fsck", "--strict"]).status, 0)
  }
}
