import Glibc
import VaultCore

/// Standard output and standard error.
///
/// Output goes out unbuffered with `write(2)`; when the reader of standard output has gone (`vault
/// list | head -1`), the process exits 141 at once, as a process killed by SIGPIPE would, and
/// prints nothing.
public enum Output {
  /// Exit status when standard output's reader went away.
  public static let brokenPipe: Int32 = 141

  /// Writes raw bytes to standard output.
  public static func write(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let n = Glibc.write(1, base + offset, bytes.count - offset)
      if n < 0 && errno == EINTR { continue }
      if n < 0 && errno == EPIPE { exit(brokenPipe) }
      if n <= 0 { exit(1) }
      offset += n
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
