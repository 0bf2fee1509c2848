import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

// The signal handlers below must restore the terminal without touching Swift objects, so the saved
// state lives in plain globals that only the main thread writes.
nonisolated(unsafe) private var savedFD: Int32 = -1
nonisolated(unsafe) private var savedMode = termios()
nonisolated(unsafe) private var activeMode = termios()
nonisolated(unsafe) private var promptBytes: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var promptLength = 0

/// Ctrl-Z at a prompt: the shell's terminal mode while stopped, the prompt's again after `fg`.
///
/// On resume the prompt is shown again with echo off. Only async-signal-safe calls.
private func suspendAndResume(_ signal: Int32) {
  if savedFD >= 0 { tcsetattr(savedFD, TCSAFLUSH, &savedMode) }
  Glibc.signal(SIGTSTP, SIG_DFL)
  var unblock = sigset_t()
  sigemptyset(&unblock)
  sigaddset(&unblock, SIGTSTP)
  sigprocmask(SIG_UNBLOCK, &unblock, nil)
  raise(SIGTSTP)
  // Stopped here until SIGCONT.
  Glibc.signal(SIGTSTP, suspendAndResume)
  if savedFD >= 0 {
    tcsetattr(savedFD, TCSAFLUSH, &activeMode)
    if let promptBytes { _ = write(savedFD, promptBytes, promptLength) }
  }
}

private func restoreAndExit(_ signal: Int32) {
  if savedFD >= 0 {
    tcsetattr(savedFD, TCSAFLUSH, &savedMode)
    var newline: UInt8 = 10
    _ = write(savedFD, &newline, 1)
  }
  _exit(128 + signal)
}

/// The controlling terminal (`/dev/tty`): prompts, hidden input, and the simulated sensor's single-key answers.
///
/// Echo and line mode are restored on every exit path: normal return, thrown error, Ctrl-C, SIGTERM
/// and SIGHUP (the process then exits 128 + signal).
public final class Terminal {
  let fd: Int32

  private init(fd: Int32) { self.fd = fd }

  deinit { close(fd) }

  /// Opens `path` (the controlling terminal, `/dev/tty`), or returns nil when it is nil or no
  /// terminal; in the agent's worker, the client's terminal that came with the request
  /// (`clientTerminal`, a descriptor duplicated here; -1 or nil for none).
  static func open(clientTerminal: Int32? = nil, path: String? = "/dev/tty") -> Terminal? {
    if let clientTerminal, clientTerminal >= 0 {
      let fd = fcntl(clientTerminal, F_DUPFD_CLOEXEC, 3)
      return fd >= 0 ? Terminal(fd: fd) : nil
    }
    guard let path else { return nil }
    let fd = Glibc.open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0, isatty(fd) == 1 else {
      if fd >= 0 { close(fd) }
      return nil
    }
    return Terminal(fd: fd)
  }

  /// Writes text to the terminal (never to standard output).
  public func say(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      offset += n
    }
    wipe(&bytes)
  }

  /// Shows `prompt` and runs `body` with the terminal in the changed mode.
  ///
  /// The original mode comes back afterwards, and on SIGINT, SIGTERM, SIGHUP or SIGQUIT before
  /// exiting. Ctrl-Z restores it while stopped; `fg` changes it again and shows the prompt again.
  private func withMode<R>(
    prompt: String, _ change: (inout termios) -> Void, _ body: () throws -> R
  ) rethrows -> R {
    var original = termios()
    guard tcgetattr(fd, &original) == 0 else {
      say(prompt)
      return try body()
    }
    var mode = original
    change(&mode)
    let bytes = Array(prompt.utf8)
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    buffer.initialize(from: bytes, count: bytes.count)
    savedMode = original
    activeMode = mode
    promptBytes = buffer
    promptLength = bytes.count
    savedFD = fd
    let saved = SavedSignals([SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP])
    for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { signal(number, restoreAndExit) }
    signal(SIGTSTP, suspendAndResume)
    tcsetattr(fd, TCSAFLUSH, &mode)
    defer {
      tcsetattr(fd, TCSAFLUSH, &original)
      savedFD = -1
      saved.restore()
      promptBytes = nil
      buffer.deallocate()
    }
    say(prompt)
    return try body()
  }

  /// Shows `prompt` and reads one line with echo off into guarded memory (without the newline).
  ///
  /// - Throws: `Cancelled` on end of file (Ctrl-D), `InputRefused` past 4096 bytes.
  public func readHidden(prompt: String) throws -> SecureBytes {
    // Echo goes off before the prompt appears, so nothing typed early is shown.
    let line = try withMode(prompt: prompt, { $0.c_lflag &= ~tcflag_t(ECHO) }) {
      try LineReader.readLine(fd: fd)
    }
    say("\n")
    guard let line else { throw Cancelled(why: "no input") }
    return line
  }

  /// Shows `prompt` and reads one line with echo on (a confirmation, never a secret).
  ///
  /// - Throws: `Cancelled` on end of file (Ctrl-D), `InputRefused` past 4096 bytes.
  public func readVisible(prompt: String) throws -> String {
    let line = try withMode(prompt: prompt, { _ in }) { try LineReader.readLine(fd: fd) }
    guard let line else { throw Cancelled(why: "nothing was typed") }
    return String(decoding: line.unprotectedBytes, as: UTF8.self)
  }

  /// The simulated sensor's prompt: one key, no echo.
  ///
  /// Enter is a matching finger or face, `n` a non-matching one, Ctrl-C or Escape cancels.
  public func readSensorKey(prompt: String) -> UInt8? {
    withMode(
      prompt: prompt,
      {
        $0.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &$0.c_cc) { cc in
          cc[Int(VMIN)] = 1
          cc[Int(VTIME)] = 0
        }
      }
    ) {
      var byte: UInt8 = 0
      while true {
        let n = read(fd, &byte, 1)
        // Signals are off in this mode, so Ctrl-Z arrives as a byte: suspend as at other prompts.
        if n == 1 && byte == 26 {
          raise(SIGTSTP)
          continue
        }
        if n == 1 { return byte }
        if n < 0 && errno == EINTR { continue }
        return nil
      }
    }
  }
}

/// Reads one line at a time, byte by byte, so nothing past the newline is consumed (several
/// secrets can come from one `--pin-fd`).
enum LineReader {
  static let maximum = 4096

  /// One line without its newline, or nil at end of file before any byte.
  ///
  /// - Throws: `InputRefused` when the line is longer than 4096 bytes.
  static func readLine(fd: Int32) throws -> SecureBytes? {
    let buffer = SecureBytes(count: maximum)
    var count = 0
    var sawAny = false
    while true {
      var byte: UInt8 = 0
      let n = read(fd, &byte, 1)
      if n < 0 && errno == EINTR { continue }
      if n < 0 {
        throw InputRefused(
          "cannot read descriptor \(fd): \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      sawAny = true
      if byte == 10 { break }
      guard count < maximum else {
        throw InputRefused("a line longer than \(maximum) bytes was given")
      }
      buffer[count] = byte
      count += 1
    }
    guard sawAny else { return nil }
    if count > 0 && buffer[count - 1] == 13 { count -= 1 }
    return buffer.prefix(count)
  }

  /// Everything until end of file (or the first `limit` bytes when given), into guarded memory
  /// that grows by doubling (old copies are wiped by `sodium_free`); the result is packed
  /// (`SecureBytes.init(count:packed:)`) when `packed`.
  ///
  /// - Throws: `CommandFailed` on a read error, or when it cannot be held.
  static func readAll(fd: Int32, limit: Int? = nil, packed: Bool = false) throws -> SecureBytes {
    var buffer = SecureBytes(count: min(64 * 1024, limit ?? Int.max))
    var count = 0
    while true {
      if let limit, count == limit { break }
      if count == buffer.count {
        do {
          buffer = try buffer.grown(to: min(buffer.count * 2, limit ?? Int.max))
        } catch {
          throw CommandFailed(
            "standard input is too large to hold in memory (\(count) bytes read); nothing was"
              + " stored")
        }
      }
      let filled = count
      let n = buffer.withMutableBytes {
        read(fd, $0.baseAddress.map { $0 + filled }, $0.count - filled)
      }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { throw CommandFailed("cannot read standard input") }
      if n == 0 { break }
      count += n
    }
    return buffer.prefix(count, packed: packed)
  }

  /// Everything until end of file when it is at most `limit` bytes, so that an input a command
  /// holds in memory (a field's value, a template, the text an editor saved) stays bounded.
  ///
  /// - Throws: `InputRefused` naming `what` as soon as more than `limit` bytes come;
  ///   `CommandFailed` on a read error.
  static func readAll(fd: Int32, atMost limit: Int, what: String, packed: Bool = false) throws
    -> SecureBytes
  {
    let data = try readAll(fd: fd, limit: limit + 1, packed: packed)
    guard data.count <= limit else {
      throw InputRefused(
        "\(what) is larger than \(limit) bytes, more than vault holds in memory; nothing was"
          + " written")
    }
    return data
  }

  /// One `read(2)` of `fd` into `buffer`, again after `EINTR`.
  ///
  /// - Returns: the bytes read, 0 at the end.
  /// - Throws: `CommandFailed` when it cannot be read.
  static func readSome(fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    while true {
      let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
      if n < 0 && errno == EINTR { continue }
      if n < 0 {
        throw CommandFailed(
          "cannot read standard input: \(String(cString: strerror(errno))); nothing was stored")
      }
      return n
    }
  }
}
