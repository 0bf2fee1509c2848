import CPlatform
import Dispatch
import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultTransfer

/// The `decrypt` closure of the `pass` and `gopass` imports: the user's own `gpg`, run as
/// `gpg --batch --quiet --decrypt -- FILE` for each entry file, its standard output read into
/// guarded memory.
///
/// Both pass and gopass (its GnuPG backend) write ordinary OpenPGP messages, binary or armored,
/// which this one command decrypts; gpg-agent holds the key and asks for its passphrase with the
/// user's pinentry, as `pass show` would (`--batch` stops only gpg's own prompts).
///
/// The child gets standard input from `/dev/null`, standard output and error on pipes, no other
/// descriptor (`ChildHygiene`), every signal unblocked and SIGPIPE and SIGXFSZ at their defaults,
/// and a clean environment: only `passed`, taken from vault's, and never a `VAULT_` variable.
/// `GPG_TTY` is the terminal on standard input or standard error when the user has not set it,
/// as pass sets it, so a text pinentry can find the terminal.
///
/// Usage: `.folder(path: path, decrypt: try GPGDecrypt(environment: context.environment).decrypt)`.
struct GPGDecrypt: Sendable {
  /// The variables gpg gets, when vault has them.
  ///
  /// `HOME` and `GNUPGHOME` find the keyring,
  /// `PATH` the agent and pinentry programs; `GPG_TTY` and `TERM` let a text pinentry use the
  /// terminal, `DISPLAY`, `WAYLAND_DISPLAY`, `XAUTHORITY` and `DBUS_SESSION_BUS_ADDRESS` a
  /// graphical one (when this gpg starts the agent); `LANG`, `LC_ALL`, `LC_CTYPE` and
  /// `LC_MESSAGES` its language and character set. Nothing else is needed to decrypt.
  static let passed = [
    "HOME", "GNUPGHOME", "PATH", "GPG_TTY", "TERM", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY",
    "DBUS_SESSION_BUS_ADDRESS", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
  ]

  /// The `gpg` found on `PATH`.
  let program: String
  /// The child's whole environment.
  let environment: [String: String]

  /// Finds `gpg` on the `PATH` of `environment` and makes the child's environment from it.
  ///
  /// - Throws: `VaultError.programNotFound("gpg")` when no executable `gpg` is on `PATH`.
  init(environment: VaultEnvironment) throws {
    let variables = ChildHygiene.environment(environment.variables)
    var kept = variables.filter { Self.passed.contains($0.key) }
    if kept["GPG_TTY"] == nil, let terminal = Self.terminal() { kept["GPG_TTY"] = terminal }
    self.environment = kept
    guard let found = ProgramSearch.find("gpg", variables) else {
      throw VaultError.programNotFound("gpg")
    }
    program = found
  }

  /// The terminal on standard input or, failing that, standard error, or nil.
  static func terminal() -> String? {
    for fd: Int32 in [0, 2] where isatty(fd) == 1 {
      if let name = ttyname(fd) { return String(cString: name) }
    }
    return nil
  }

  /// The plaintext of the encrypted file at `path`.
  ///
  /// - Throws: `TransferError` at `.file(path)` when gpg cannot be started, exits with a
  ///   failure (the message ends with gpg's last line on standard error, such as `gpg:
  ///   decryption failed: No secret key`) or is killed; what it wrote is wiped then.
  func decrypt(_ path: String) throws -> SecureBytes {
    let at = SourceLocation.file(path)
    // gpg reads the file from its standard input, opened here without following a link and
    // checked to be a regular file: what was checked is what is decrypted, even if the name is
    // swapped for a link or a FIFO meanwhile.
    let file = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard file >= 0 else {
      throw TransferError(.gpg(.fileNotOpened(errno: errno)), at: at)
    }
    defer { close(file) }
    var info = stat()
    guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw TransferError(.passwordStore(.notARegularFile), at: at)
    }
    _ = fcntl(file, F_SETFL, fcntl(file, F_GETFL) & ~O_NONBLOCK)
    var output: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    guard makePipe(&output), makePipe(&errors) else {
      for fd in output + errors where fd >= 0 { close(fd) }
      throw TransferError(.gpg(.noPipe(errno: errno)), at: at)
    }
    let spawn = Spawn(
      executable: program, arguments: [program, "--batch", "--quiet", "--decrypt"],
      environment: environment,
      descriptors: [
        (0, .descriptor(file)), (1, .descriptor(output[1])), (2, .descriptor(errors[1])),
      ],
      signals: .standardUnblocked)
    let pid: pid_t
    do {
      pid = try spawn.start()
    } catch {
      for fd in output + errors { close(fd) }
      throw VaultError.programNotStarted(program, reason: error.reason)
    }
    close(output[1])
    close(errors[1])
    let stderr = StandardError(fd: errors[0])
    let plaintext: SecureBytes
    do {
      // Bounded: a compressed file can decrypt to far more than it holds.
      plaintext = try LineReader.readAll(
        fd: output[0], atMost: Self.maximumPlaintext, what: "its plaintext", packed: true)
    } catch {
      close(output[0])
      _ = stderr.finish()
      _ = Subprocess.wait(pid)
      if error is InputRefused {
        throw TransferError(.gpg(.plaintextTooLarge(limit: Self.maximumPlaintext)), at: at)
      }
      throw TransferError(.gpg(.outputNotRead), at: at)
    }
    close(output[0])
    let message = stderr.finish()
    let status = Subprocess.wait(pid)
    guard status == 0 else {
      let fault: GPGFault =
        status > 128
        ? .killed(signal: status - 128, lastLine: message)
        : .exited(status: status, lastLine: message)
      throw TransferError(.gpg(fault), at: at)
    }
    return plaintext
  }

  /// The largest plaintext one file of a store may decrypt to (16 MiB).
  static let maximumPlaintext = 16 << 20

  /// A pipe whose ends close on exec (only the ends put on 0–2 reach gpg).
  private func makePipe(_ fds: inout [Int32]) -> Bool {
    guard fds.withUnsafeMutableBufferPointer({ pipe($0.baseAddress) }) == 0 else { return false }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return true
  }
}

/// gpg's standard error, read on a thread of its own while its output is read, so neither pipe
/// can fill and stop it; only the last line is kept for the message.
private final class StandardError: @unchecked Sendable {
  private let group = DispatchGroup()
  private var bytes: [UInt8] = []

  init(fd: Int32) {
    group.enter()
    DispatchQueue.global().async {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        // A bounded tail is enough for the last line.
        self.bytes = Array((self.bytes + buffer[0..<n]).suffix(4096))
      }
      close(fd)
      self.group.leave()
    }
  }

  /// Waits for the end of the stream; its last non-empty line, control characters shown as
  /// `?` (it may hold a file name), without white space at either end.
  func finish() -> String {
    group.wait()
    let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
    let last = lines.last { !$0.allSatisfy(\.isWhitespace) } ?? ""
    let shown = String(
      String.UnicodeScalarView(
        last.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    guard let first = shown.firstIndex(where: { !$0.isWhitespace }),
      let last = shown.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(shown[first...last])
  }
}
