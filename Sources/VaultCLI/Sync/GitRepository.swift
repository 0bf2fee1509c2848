import FoundationEssentials
import Glibc
import VaultCore
import VaultFormat
import VaultSync

/// The sync repository through the user's own `git` (`SyncRepository`): a bare clone beside the
/// vault file (`PATH.sync`, mode 0700) whose `origin` is the remote, and the remote's branch
/// `vault`.
///
/// Each operation is one `git` command, started as every child of vault is (`ChildHygiene`:
/// descriptors 0–2 only, no `VAULT_` variable) with no terminal and an environment of only
/// `passed`, so the user's own configuration (`~/.gitconfig`, `XDG_CONFIG_HOME`) and credentials
/// (an ssh agent, an askpass program) reach it and nothing of vault does. Commits are written
/// by `git fast-import` with the fixed author, date and message of `vault(5)` SYNC REPOSITORY.
final class GitRepository: SyncRepository {
  /// The variables git gets, when vault has them: its configuration and the user's
  /// credentials for remotes, its language, and nothing else.
  static let passed = [
    "HOME", "PATH", "XDG_CONFIG_HOME", "SSH_AUTH_SOCK", "SSH_ASKPASS", "GIT_SSH",
    "GIT_SSH_COMMAND", "GIT_ASKPASS", "DISPLAY", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
    "TMPDIR",
  ]
  /// The remote's branch.
  static let branch = "vault"
  /// Where the remote's branch is fetched to.
  static let remoteRef = "refs/remotes/origin/vault"
  /// The fixed identity and date of every commit.
  static let identity = "vault <vault@localhost> 0 +0000"
  /// The fixed message of every commit.
  static let message = "vault sync"

  /// The bare repository.
  let path: String
  /// The `git` found on `PATH`.
  let program: String
  /// The child's whole environment.
  let environment: [String: String]

  /// The sync repository of the vault file at `vaultPath`: `vaultPath` + ".sync".
  static func path(forVault vaultPath: String) -> String { vaultPath + ".sync" }

  /// The repository at `path`, run with the `git` on the `PATH` of `environment`.
  ///
  /// - Throws: `VaultError.syncFailed` when no executable `git` is on `PATH`.
  init(path: String, environment: VaultEnvironment) throws {
    self.path = path
    let variables = ChildHygiene.environment(environment.variables)
    var kept = variables.filter { Self.passed.contains($0.key) }
    // Never a prompt on a terminal git does not have: a credential it needs is an error.
    kept["GIT_TERMINAL_PROMPT"] = "0"
    self.environment = kept
    guard let found = ProgramSearch.find("git", variables) else {
      throw VaultError.syncFailed(.gitNotFound)
    }
    program = found
  }

  /// The result of one git command.
  private func run(_ arguments: [String], input: [UInt8]? = nil, inRepository: Bool = true)
    -> Subprocess.Result
  {
    Subprocess.run(
      program, (inRepository ? ["--git-dir=" + path] : []) + arguments, environment: environment,
      stdin: input)
  }

  /// The output of a git command that must succeed.
  ///
  /// - Throws: `VaultError.syncFailed` with git's last line of error output.
  @discardableResult
  private func check(_ arguments: [String], input: [UInt8]? = nil, inRepository: Bool = true)
    throws -> [UInt8]
  {
    let result = run(arguments, input: input, inRepository: inRepository)
    guard result.status == 0 else { throw Self.failure(arguments, result) }
    return result.stdout
  }

  private static func failure(_ arguments: [String], _ result: Subprocess.Result) -> VaultError {
    // git's own reason: its first `fatal:` or `error:` line, else its first line (the
    // last is often advice).
    // "\r\n" (ssh's) is one Character: split on any line break.
    let lines = result.stderrText.split(whereSeparator: \.isNewline).map(String.init)
    let line =
      lines.first { $0.hasPrefix("fatal: ") || $0.hasPrefix("error: ") } ?? lines.first ?? ""
    let command = arguments.first { !$0.hasPrefix("-") } ?? "git"
    return VaultError.syncFailed(.gitFailed(command: command, status: result.status, reason: line))
  }

  // MARK: - Setting up

  /// True when the repository exists.
  var exists: Bool { access(path, F_OK) == 0 }

  /// Makes the bare repository with `remote` as its `origin`.
  ///
  /// - Throws: `VaultError.syncFailed` when git fails.
  func create(remote: String) throws {
    try check(["init", "--bare", "-q", path], inRepository: false)
    try check(["config", "remote.origin.url", remote])
    try check(["config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"])
  }

  /// The value of `key` in the repository's own git configuration, nil when it has none.
  func configValue(_ key: String) -> String? {
    let result = run(["config", "--local", "--get", key])
    guard result.status == 0 else { return nil }
    return result.stdoutText.split(separator: "\n").first.map(String.init)
  }

  /// Sets `key` to `value` in the repository's own git configuration.
  ///
  /// - Throws: `VaultError.syncFailed` when git fails.
  func setConfig(_ key: String, _ value: String) throws {
    try check(["config", "--local", key, value])
  }

  /// Removes `key` from the repository's own git configuration.
  ///
  /// - Throws: `VaultError.syncFailed` when git fails.
  func unsetConfig(_ key: String) throws {
    try check(["config", "--local", "--unset-all", key])
  }

  /// The URL of `origin`, nil when none is set.
  func remoteURL() -> String? {
    let result = run(["config", "--get", "remote.origin.url"])
    guard result.status == 0 else { return nil }
    return result.stdoutText.split(separator: "\n").first.map(String.init)
  }

  /// Makes a bare repository at the local path `remote` (for `vault sync init` on a path that
  /// does not exist yet).
  ///
  /// - Throws: `VaultError.syncFailed` when git fails.
  func createBare(at remote: String) throws {
    try check(["init", "--bare", "-q", remote], inRepository: false)
    // So that a plain `git clone` of it checks the branch out.
    try check(
      ["--git-dir=" + remote, "symbolic-ref", "HEAD", "refs/heads/\(Self.branch)"],
      inRepository: false)
  }

  // MARK: - SyncRepository

  func fetch() throws -> String? {
    removeStaleTemporaries()
    // The git of a sync that was killed goes on to its end, and its fetch may still be moving
    // the remote ref while this one runs ("cannot lock ref", a ref's lock file in place): this
    // fetch waits for it, up to `fetchLockWait` seconds, as a sync waits for the sync lock.
    var waited = 0.0
    while true {
      let result = run(["fetch", "-q", "--prune", "origin"])
      if result.status == 0 { break }
      let text = result.stderrText
      guard waited < Self.fetchLockWait,
        text.contains("cannot lock ref") || text.contains("': File exists")
      else { throw Self.failure(["fetch"], result) }
      usleep(100_000)
      waited += 0.1
    }
    return resolved(Self.remoteRef)
  }

  /// Seconds a fetch waits for another git of this repository that holds a ref's lock.
  static let fetchLockWait = 10.0

  /// How old a temporary file of git's must be before a sync removes it, in seconds: older than
  /// any fetch still running.
  static let staleTemporary: Double = 3600

  /// Removes the temporary files a git process killed while it fetched or wrote objects left in
  /// the repository (`objects/pack/tmp_pack_*`, `objects/pack/tmp_idx_*`, `objects/tmp_obj_*`),
  /// once they are an hour old; git itself keeps them for weeks.
  func removeStaleTemporaries() {
    let now = Date().timeIntervalSince1970
    for folder in [path + "/objects", path + "/objects/pack"] {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
        continue
      }
      for name in names where name.hasPrefix("tmp_") {
        var info = stat()
        let file = folder + "/" + name
        guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
          now - Double(info.st_mtim.tv_sec) > Self.staleTemporary
        else { continue }
        unlink(file)
      }
    }
  }

  /// The entries `git ls-tree -z` prints: `MODE TYPE BLOB<TAB>PATH`, each ended by NUL.
  private static func treeEntries(_ output: [UInt8]) -> [(path: String, blob: String)] {
    output.split(separator: 0).compactMap { entry in
      guard let tab = entry.firstIndex(of: 9) else { return nil }
      let fields = entry[entry.startIndex..<tab].split(separator: 32)
      guard fields.count == 3, fields[1].elementsEqual("blob".utf8) else { return nil }
      return (
        String(decoding: entry[(tab + 1)...], as: UTF8.self),
        String(decoding: fields[2], as: UTF8.self)
      )
    }
  }

  func files(of commit: String, under folders: [String]) throws -> [(path: String, blob: String)] {
    guard !folders.isEmpty else { return [] }
    let prefixes = folders.map { $0 + "/" }
    let listed =
      folders.count > 64
      ? try check(["ls-tree", "-r", "-z", commit])
      : try check(["ls-tree", "-r", "-z", commit, "--"] + folders)
    return Self.treeEntries(listed).filter { file in prefixes.contains { file.path.hasPrefix($0) } }
  }

  func blobs(of commit: String, paths: [String]) throws -> [String: String] {
    guard !paths.isEmpty else { return [:] }
    let listed =
      paths.count > 64
      ? try check(["ls-tree", "-r", "-z", commit])
      : try check(["ls-tree", "-r", "-z", commit, "--"] + paths)
    let wanted = Set(paths)
    var out: [String: String] = [:]
    for file in Self.treeEntries(listed) where wanted.contains(file.path) {
      out[file.path] = file.blob
    }
    return out
  }

  func changes(from old: String?, to new: String) throws -> [SyncTreeChange] {
    guard let old else {
      // `MODE TYPE ID` TAB `PATH` NUL for each entry, gitlinks and symlinks included.
      return try check(["ls-tree", "-r", "-z", new]).split(separator: 0).compactMap { entry in
        guard let tab = entry.firstIndex(of: 9) else { return nil }
        let fields = entry[entry.startIndex..<tab].split(separator: 32).map {
          String(decoding: $0, as: UTF8.self)
        }
        guard fields.count == 3 else { return nil }
        return SyncTreeChange(
          path: String(decoding: entry[(tab + 1)...], as: UTF8.self), oldBlob: nil,
          newBlob: fields[2], newMode: fields[0])
      }
    }
    // `:MODE MODE OLD NEW STATUS` NUL `PATH` NUL for each file.
    let fields = try check(["diff-tree", "-r", "-z", "--no-renames", "--raw", old, new])
      .split(separator: 0, omittingEmptySubsequences: false)
    var out: [SyncTreeChange] = []
    var index = 0
    while index + 1 < fields.count {
      let head = fields[index].split(separator: 32).map { String(decoding: $0, as: UTF8.self) }
      let path = String(decoding: fields[index + 1], as: UTF8.self)
      index += 2
      guard head.count == 5, head[0].hasPrefix(":") else { continue }
      let zero = { (id: String) in id.allSatisfy { $0 == "0" } }
      out.append(
        SyncTreeChange(
          path: path, oldBlob: zero(head[2]) ? nil : head[2],
          newBlob: zero(head[3]) ? nil : head[3], newMode: head[1]))
    }
    return out
  }

  func sizes(_ blobs: [String]) throws -> [String: Int] {
    let unique = Array(Set(blobs))
    guard !unique.isEmpty else { return [:] }
    let output = try check(
      ["cat-file", "--batch-check"], input: Array(unique.map { $0 + "\n" }.joined().utf8))
    // `ID TYPE SIZE` LF, or `ID missing` LF.
    var out: [String: Int] = [:]
    for line in output.split(separator: 10) {
      let fields = line.split(separator: 32).map { String(decoding: $0, as: UTF8.self) }
      if fields.count == 3, let size = Int(fields[2]) { out[fields[0]] = size }
    }
    return out
  }

  func read(_ blobs: [String]) throws -> [String: [UInt8]] {
    let unique = Array(Set(blobs))
    guard !unique.isEmpty else { return [:] }
    let output = try check(
      ["cat-file", "--batch"], input: Array(unique.map { $0 + "\n" }.joined().utf8))
    // `ID TYPE SIZE` LF, SIZE bytes, LF; or `ID missing` LF.
    var out: [String: [UInt8]] = [:]
    var at = 0
    while at < output.count {
      guard let newline = output[at...].firstIndex(of: 10) else { break }
      let head = output[at..<newline].split(separator: 32).map {
        String(decoding: $0, as: UTF8.self)
      }
      at = newline + 1
      guard head.count == 3, let size = Int(head[2]), at + size <= output.count else { continue }
      out[head[0]] = Array(output[at..<(at + size)])
      at += size + 1
    }
    return out
  }

  func commit(
    after parent: String?, replacingAll: Bool, writing: [(path: String, bytes: [UInt8])],
    removing: [String]
  ) throws -> String {
    let ref = "refs/vault/pending"
    var stream = Array("commit \(ref)\n".utf8)
    stream += Array("author \(Self.identity)\ncommitter \(Self.identity)\n".utf8)
    stream += Array("data \(Self.message.utf8.count)\n\(Self.message)\n".utf8)
    // A first commit has no `from`, and no ref left from an earlier one.
    if let parent { stream += Array("from \(parent)\n".utf8) }
    _ = run(["update-ref", "-d", ref])
    if replacingAll { stream += Array("deleteall\n".utf8) }
    for path in removing { stream += Array("D \(path)\n".utf8) }
    for file in writing {
      stream += Array("M 100644 inline \(file.path)\ndata \(file.bytes.count)\n".utf8)
      stream += file.bytes + [10]
    }
    stream += Array("\ndone\n".utf8)
    try check(["fast-import", "--quiet", "--force", "--done"], input: stream)
    let id = String(decoding: try check(["rev-parse", ref]), as: UTF8.self)
    return String(id.prefix { $0 != "\n" })
  }

  /// The file whose `flock` is the sync lock (`SyncRepository.exclusively`).
  static let lockName = "vault-sync.lock"

  func exclusively<R>(_ body: () throws -> R) throws -> R {
    try PrivateFiles.withExclusiveLock(path + "/" + Self.lockName, body)
  }

  /// The ref that keeps the base of a rotation taken here (`keep`).
  static let keptRef = "refs/vault/translated-base"

  func keep(_ commit: String) throws {
    try check(["update-ref", Self.keptRef, commit])
  }

  func kept() throws -> String? { resolved(Self.keptRef) }

  /// The ref that names the commit a sync is pushing (`notePush`).
  static let pushingRef = "refs/vault/pushing"

  func notePush(_ commit: String?) throws {
    if let commit {
      try check(["update-ref", Self.pushingRef, commit])
    } else if resolved(Self.pushingRef) != nil {
      try check(["update-ref", "-d", Self.pushingRef])
    }
  }

  func notedPush() throws -> String? { resolved(Self.pushingRef) }

  func parent(of commit: String) throws -> String? { resolved(commit + "^1") }

  /// The commit `revision` names, nil when it names none.
  private func resolved(_ revision: String) -> String? {
    let result = run(["rev-parse", "-q", "--verify", revision + "^{commit}"])
    guard result.status == 0 else { return nil }
    return result.stdoutText.split(separator: "\n").first.map(String.init)
  }

  func isAncestor(_ ancestor: String, of commit: String) throws -> Bool {
    let result = run(["merge-base", "--is-ancestor", ancestor, commit])
    switch result.status {
    case 0: return true
    case 1: return false
    default:
      // An ancestor git no longer holds (collected after a forced push replaced it) is none.
      if resolved(ancestor) == nil { return false }
      throw Self.failure(["merge-base"], result)
    }
  }

  func push(_ commit: String, over expected: String?) throws -> PushOutcome {
    let result = run(["push", "-q", "--porcelain", "origin", "\(commit):refs/heads/\(Self.branch)"])
    if result.status == 0 {
      try check(["update-ref", "refs/heads/\(Self.branch)", commit])
      return .pushed
    }
    let text = result.stdoutText + result.stderrText
    if let lock = Self.lockFile(in: text) {
      return .locked(path: lock, age: Self.age(of: lock))
    }
    // Refused because the remote moved: rejected as not a fast-forward, or (a push racing
    // another into the same repository) the branch's lock taken or moved under git.
    if text.contains("[rejected]") || text.contains("non-fast-forward")
      || text.contains("fetch first") || text.contains("cannot lock ref")
      || text.contains("failed to update ref")
    {
      return .moved
    }
    throw Self.failure(["push"], result)
  }

  /// The lock file git's "Unable to create 'PATH': File exists." names, with `/./` folded.
  static func lockFile(in text: String) -> String? {
    let opening = "Unable to create '"
    guard let start = text.firstRange(of: opening),
      let end = text[start.upperBound...].firstRange(of: "': File exists")
    else { return nil }
    var path = String(text[start.upperBound..<end.lowerBound])
    while let dot = path.firstRange(of: "/./") { path.replaceSubrange(dot, with: "/") }
    return path
  }

  /// Seconds since `path` was last modified, nil when this device cannot read it.
  static func age(of path: String) -> Double? {
    var info = stat()
    guard path.hasPrefix("/"), stat(path, &info) == 0 else { return nil }
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return max(0, Double(now.tv_sec - info.st_mtim.tv_sec))
  }
}
