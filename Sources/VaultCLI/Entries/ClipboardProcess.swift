import CPlatform
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// A clipboard program or the detached clearer: standard input from a pipe this process writes,
/// standard output and error to `/dev/null`.
///
/// Clipboard programs fork a server that keeps the selection; with its outputs on `/dev/null` it
/// holds no pipe of ours open, so callers that read our output are not kept waiting.
struct ClipboardProcess {
  /// The child's process id.
  let pid: pid_t
  /// The write end of the child's standard input.
  let input: Int32

  /// Starts `path` with `arguments`; with `detach`, in a new session with no controlling terminal.
  ///
  /// - Throws: `CommandFailed` when it cannot be started.
  static func start(
    _ path: String, _ arguments: [String], environment: [String: String], detach: Bool
  ) throws -> ClipboardProcess {
    var fds: [Int32] = [-1, -1]
    guard fds.withUnsafeMutableBufferPointer({ pipe($0.baseAddress) }) == 0 else {
      throw CommandFailed("cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let spawn = Spawn(
      executable: path, arguments: [path] + arguments,
      environment: ChildHygiene.environment(environment),
      descriptors: [
        (0, .descriptor(fds[0])), (1, .devNull(writable: true)), (2, .devNull(writable: true)),
      ],
      newSession: detach)
    defer { close(fds[0]) }
    do {
      return ClipboardProcess(pid: try spawn.start(), input: fds[1])
    } catch {
      close(fds[1])
      throw CommandFailed("cannot start \(path): \(error.reason)")
    }
  }

  /// Writes `input` to the child's standard input and closes it, without waiting.
  func feed(input bytes: SecureBytes) {
    var offset = 0
    while offset < bytes.count {
      let done = offset
      let n = bytes.withBytes { write(input, $0.baseAddress.map { $0 + done }, $0.count - done) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      offset += n
    }
    close(input)
  }

  /// Writes `input`, closes it and waits for the child.
  ///
  /// - Returns: its exit status, or 128 + signal.
  func finish(input bytes: SecureBytes) -> Int32 {
    feed(input: bytes)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }
}
