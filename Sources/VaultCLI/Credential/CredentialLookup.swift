import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// The folder whose entries named `HOST` or `HOST/PATH` serve git without a `url:` field:
/// `credential.folder` of `UserConfig`, else `git`.
enum CredentialFolder {
  /// The folder when none is set.
  static let standard = "git"

  /// The folder of `environment`'s settings.
  ///
  /// - Throws: as `UserConfig.read`.
  static func name(_ environment: VaultEnvironment) throws -> String {
    try UserConfig.read(environment)[.credentialFolder] ?? standard
  }
}

/// The entries that serve git's requests, found in one vault.
struct CredentialLookup {
  /// An entry that serves a request.
  struct Found {
    let name: EntryName
    /// Its content as stored.
    let content: SecureBytes
    let fields: EntryFields
    let target: CredentialTarget
    /// How well it serves (`CredentialTarget.serves`).
    let rank: Int

    /// Its username (`EntryFields.username`: a `username`, `user` or `login` field).
    var username: String? {
      fields.username.flatMap { String(validating: $0.unprotectedBytes, as: UTF8.self) }
    }
  }

  let entries: EntryStore
  let folder: String

  init(_ entries: EntryStore, folder: String) {
    self.entries = entries
    self.folder = folder
  }

  /// Every unguarded entry that serves `target`, with its rank.
  ///
  /// An entry that has no fields to read is passed over: a large one (its content is not read
  /// into memory) or one that is not text (new-user review: one such entry made every request
  /// fail). Damage is not passed over.
  func candidates(for target: CredentialTarget) throws -> [Found] {
    var out: [Found] = []
    for listing in try entries.listing() where !listing.guarded {
      let name = try EntryName(listing.name)
      let content: SecureBytes
      do {
        content = try entries.get(name).content
      } catch VaultError.tooLarge {
        continue
      }
      guard let fields = try? EntryFields(content) else { continue }
      // A url: field decides alone: one that names no protocol and host serves nothing.
      let own: CredentialTarget?
      if let url = fields.value("url") {
        own = String(validating: url.unprotectedBytes, as: UTF8.self).flatMap(
          CredentialTarget.init(url:))
      } else {
        own = folderTarget(listing.name)
      }
      guard let own, let rank = own.serves(target) else { continue }
      out.append(Found(name: name, content: content, fields: fields, target: own, rank: rank))
    }
    return out
  }

  /// The entry that serves `target` best, with a password (git erased an empty one) and, when
  /// git names a username, that username or none: the highest rank, an entry of that username
  /// before one without, the first by name among equals.
  func best(for target: CredentialTarget, username: String?) throws -> Found? {
    let served = try candidates(for: target).filter { found in
      found.fields.password.count > 0
        && (username == nil || found.username == nil || found.username == username)
    }
    func score(_ found: Found) -> Int {
      found.rank * 2 + (username != nil && found.username == username ? 1 : 0)
    }
    return served.max { score($0) < score($1) }
  }

  /// The entry for exactly `target` (the same path, or none for both) and `username` (when
  /// git names one and the entry has one).
  func exact(for target: CredentialTarget, username: String?) throws -> Found? {
    try candidates(for: target).first { found in
      found.target.path == target.path
        && (username == nil || found.username == nil || found.username == username)
    }
  }

  /// Keeps git's credential: the entry `exact` finds gets the new password (and username),
  /// its previous version kept as a revision; else a new entry `FOLDER/HOST[/PATH]` with
  /// `username:` and `url:` fields.
  ///
  /// - Throws: `VaultError.exists` when that name is another entry's; as `EntryStore.put`.
  func store(password: SecureBytes, request: GitCredential, target: CredentialTarget) throws {
    var pairs: [(key: String, value: SecureBytes)] = [("password", password)]
    if let username = request.username {
      pairs.append(("username", SecureBytes(copying: Array(username.utf8))))
    }
    if let expiry = request.passwordExpiry {
      pairs.append(("password_expiry_utc", SecureBytes(copying: Array(expiry.utf8))))
    }
    if let token = request.oauthRefreshToken { pairs.append(("oauth_refresh_token", token)) }
    if let found = try exact(for: target, username: request.username) {
      // git stores after every request that worked: what it already has writes nothing (no
      // new revision).
      let content = try found.fields.setting(pairs)
      guard content != found.content else { return }
      try entries.put(
        found.name, content: content, overwrite: true, guarded: false, change: .fieldSet)
      return
    }
    let url = target.scheme + "://" + target.authority + (target.path.map { "/" + $0 } ?? "")
    pairs.append(("url", SecureBytes(copying: Array(url.utf8))))
    let name = try freeName(
      folder + "/" + target.authority.replacing(":", with: "_")
        + (target.path.map { "/" + $0 } ?? ""), username: request.username)
    let fields = try EntryFields(SecureBytes(count: 0)).setting(pairs)
    // Lines end in LF, the last one too, as `vault add` stores what a user types.
    var content = ByteBuilder(packed: true)
    fields.withBytes { content.append($0) }
    content.append(10)
    try entries.put(name, content: content.finish(), overwrite: false, guarded: false)
  }

  /// `base`, or when an entry (another account, another protocol) has it, `base (USERNAME)`,
  /// then `base (2)`, `base (3)`…: a name no entry has.
  private func freeName(_ base: String, username: String?) throws -> EntryName {
    let taken = Set(try entries.listing(prefix: base).map(\.name))
    var choices = [base]
    if let username, !username.isEmpty { choices.append(base + " (\(username))") }
    choices += (2...99).map { base + " (\($0))" }
    for choice in choices where !taken.contains(choice) {
      if let name = try? EntryName(choice) { return name }
    }
    throw VaultError.exists(base)
  }

  /// The https target of an entry named `FOLDER/HOST[/PATH]` (a port written `HOST_PORT`), nil
  /// for any other name.
  private func folderTarget(_ name: String) -> CredentialTarget? {
    guard name.hasPrefix(folder + "/") else { return nil }
    let rest = name.dropFirst(folder.count + 1)
    let host = rest.prefix { $0 != "/" }
    guard !host.isEmpty else { return nil }
    let path = rest.dropFirst(host.count)
    return CredentialTarget(
      scheme: "https", authority: String(host).replacing("_", with: ":"), path: String(path))
  }
}
