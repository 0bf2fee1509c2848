import Glibc
import VaultCore
import VaultCrypto

/// Standard output and standard error.
///
/// Output goes out unbuffered with `write(2)`; when the reader of standard output has gone (`vault
/// list | head -1`), the process exits 141 at once, as a process killed by SIGPIPE would, and
/// prints nothing.
public enum Output {
  /// Exit status when standard output's reader went away.
  public static let brokenPipe: Int32 = ExitCode.brokenPipe.rawValue

  /// `text` on one line with nothing a terminal acts on or hides: control characters (a
  /// newline, an escape), format characters (bidirectional overrides and isolates, zero-width
  /// spaces, a byte-order mark; not the zero-width joiner of emoji) and line and paragraph
  /// separators become `?`, since messages quote what users typed and files held.
  static func printable(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { hides($0) ? "?" : $0 }))
  }

  /// True for a character a terminal acts on or that shows as nothing: control, format and
  /// separator characters, and the other default-ignorable ones (fillers such as U+3164), but
  /// not the joiner and variation selectors that emoji are made of.
  static func hides(_ scalar: Unicode.Scalar) -> Bool {
    // Printable ASCII is never hidden: answered without the Unicode property tables.
    if (0x20..<0x7f).contains(scalar.value) { return false }
    if scalar == "\u{200D}" || (0xFE00...0xFE0F).contains(scalar.value) { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: return true
    default: return scalar.properties.isDefaultIgnorableCodePoint
    }
  }

  /// A name (or other stored text) for a listing on standard output: exactly as stored for a
  /// pipe or a file, which scripts read; `printable` on a terminal, so a name cannot disguise
  /// itself or another (`bank/\u{202E}gpj.exe` shown as `bank/exe.jpg`).
  static func listed(_ text: String) -> String {
    isatty(1) == 1 ? printable(text) : text
  }

  /// Why standard output could not be written.
  enum WriteFailure: Error {
    /// The reader went away (`EPIPE`).
    case brokenPipe
    /// Any other error, with its `strerror` text.
    case failed(String)
  }

  /// Writes raw bytes to standard output, or says why it could not.
  static func tryWrite(_ bytes: UnsafeRawBufferPointer) -> WriteFailure? {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
    let scope = RunScope.current
    if let first = scope.beforeFirstWrite {
      scope.beforeFirstWrite = nil
      first()
    }
    defer { afterWrite() }
    var offset = 0
    while offset < bytes.count {
      let n = Glibc.write(1, base + offset, bytes.count - offset)
      if n < 0 && errno == EINTR { continue }
      if n < 0 && errno == EPIPE { return .brokenPipe }
      if n <= 0 { return .failed(n < 0 ? String(cString: strerror(errno)) : "nothing written") }
      offset += n
    }
    return nil
  }

  /// Runs the scope's `afterFirstWrite` once, after the run's first write to standard output.
  private static func afterWrite() {
    let scope = RunScope.current
    guard let after = scope.afterFirstWrite else { return }
    scope.afterFirstWrite = nil
    after()
  }

  /// Writes raw bytes to standard output.
  ///
  /// A closed pipe exits 141 in silence; any other failure (a full disk, `/dev/full`) exits 1 with
  /// one error line.
  public static func write(_ bytes: UnsafeRawBufferPointer) {
    switch tryWrite(bytes) {
    case nil: return
    case .brokenPipe: exit(brokenPipe)
    case .failed(let reason):
      error("\(RunScope.current.programName): error: cannot write to standard output: \(reason)")
      exit(1)
    }
  }

  /// Writes text to standard output.
  public static func print(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeBytes { write($0) }
    wipe(&bytes)
  }

  /// Writes one line to standard error.
  public static func error(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let n = Glibc.write(2, base + offset, buffer.count - offset)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
      }
    }
  }
}
