import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault credential get|store|erase`: git's credential helper (gitcredentials(7)), also run as
/// `git-credential-vault`.
struct CredentialCommand: VaultCommand {
  static let about = CommandAbout(
    "credential", "Answer git's credential requests (gitcredentials(7)): get, store, erase.",
    discussion: """
      Reads git's request (key=value lines) on standard input and writes only the protocol \
      on standard output. get answers with the username and password of the entry whose \
      url: field serves the request: the same protocol (an https credential never goes to \
      http), host and port, and the same path when git sends one \
      (credential.useHttpPath); an entry whose URL has a path beats one without. Entries \
      under the credentials folder (git, or 'vault config --global credential.folder') \
      named HOST or HOST/PATH serve https without a url: field. Nothing found: an empty \
      answer, and git asks you. store updates the entry it finds (its history kept) or \
      makes FOLDER/HOST[/PATH]; erase empties the password line of the entry it finds when \
      it is the one git names (its fields, notes and history stay). Guarded entries are never given to git. Set it up with: git config \
      --global credential.helper vault.
      """)

  @ArgumentParameter(Keys.credentialAction) var action

  func run(_ context: Context) throws -> Int32 {
    let input = try Self.readRequest()
    let request: GitCredential
    do {
      request = try GitCredential(parsing: input)
    } catch let fault as GitCredential.Fault {
      throw InputRefused("git's request is not key=value lines: \(Self.words(fault))")
    }
    // A request that names no protocol and host asks for nothing vault can serve.
    guard let target = CredentialTarget(request) else { return ExitCode.success.rawValue }
    let folder = try CredentialFolder.name(context.environment)
    switch action {
    case .get:
      let unlocked = try context.open(.use(reason: "give git a credential"))
      guard
        let found = try CredentialLookup(unlocked.entries, folder: folder).best(
          for: target, username: request.username)
      else { return ExitCode.success.rawValue }
      var answer = GitCredential()
      answer.username = found.username ?? request.username
      answer.password = found.fields.password
      answer.passwordExpiry = found.fields.value("password_expiry_utc").flatMap(Self.text)
      answer.oauthRefreshToken = found.fields.value("oauth_refresh_token")
      answer.answer().withBytes { Output.write($0) }
    case .store:
      guard let password = request.password, password.count > 0 else {
        return ExitCode.success.rawValue
      }
      let unlocked = try context.open(.use(reason: "store git's credential"))
      try CredentialLookup(unlocked.entries, folder: folder).store(
        password: password, request: request, target: target)
    case .erase:
      guard let password = request.password else { return ExitCode.success.rawValue }
      let unlocked = try context.open(.use(reason: "erase git's credential"))
      let lookup = CredentialLookup(unlocked.entries, folder: folder)
      // The password alone goes: an entry's other fields and notes (a one-time code's seed)
      // are not git's to erase, and git erases after any refusal of the server.
      if let found = try lookup.exact(for: target, username: request.username),
        found.fields.password == password
      {
        let content = try found.fields.setting([("password", SecureBytes(count: 0))])
        try unlocked.entries.put(
          found.name, content: content, overwrite: true, guarded: false, change: .fieldSet)
      }
    }
    return ExitCode.success.rawValue
  }

  /// Git's request: standard input up to its blank line (or its end), at most
  /// `GitCredential.maximumByteCount` bytes, read a byte at a time so that nothing after the
  /// blank line is taken and a writer that keeps the pipe open is not waited for.
  ///
  /// - Throws: `InputRefused` for a longer request; `CommandFailed` on a read error.
  static func readRequest() throws -> SecureBytes {
    var out = ByteBuilder(packed: true)
    var previous: UInt8 = 10
    var count = 0
    while true {
      var byte: UInt8 = 0
      let n = read(0, &byte, 1)
      if n < 0 && errno == EINTR { continue }
      if n < 0 {
        throw CommandFailed("cannot read git's request: \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      count += 1
      guard count <= GitCredential.maximumByteCount else {
        throw InputRefused(
          "git's request is larger than \(GitCredential.maximumByteCount) bytes")
      }
      out.append(byte)
      if byte == 10 && previous == 10 { break }
      if byte != 13 { previous = byte }
    }
    return out.finish()
  }

  private static func text(_ bytes: SecureBytes) -> String? {
    String(validating: bytes.unprotectedBytes, as: UTF8.self)
  }

  private static func words(_ error: GitCredential.Fault) -> String {
    switch error {
    case .tooLarge: "it is larger than \(GitCredential.maximumByteCount) bytes"
    case .lineWithoutEquals(let line): "line \(line) has no '='"
    case .notText(let line): "line \(line) is not text"
    }
  }
}

/// What `vault credential` does: get, store or erase.
public enum CredentialAction: String, ChoiceValue {
  /// Answer with a stored credential.
  case get
  /// Keep the credential git used successfully.
  case store
  /// Forget the credential git found wrong.
  case erase
}
