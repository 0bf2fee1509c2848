import CPlatform
import Dispatch
import FoundationEssentials
import Glibc
import VaultFormat

/// Runs a program with `posix_spawn`: used by `vault tour` and by the tests that run the built binaries.
///
/// The child can get standard input bytes, one extra input descriptor (for `--pin-fd`), and a new
/// session with no controlling terminal.
public enum Subprocess {
  /// What a finished child left behind.
  public struct Result: Equatable, Sendable {
    /// Exit status, or 128 + signal number when killed by a signal.
    public var status: Int32
    /// Everything written to standard output.
    public var stdout: [UInt8]
    /// Everything written to standard error.
    public var stderr: [UInt8]

    /// Standard error as text.
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    /// Standard output as text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  }

  /// Runs `executable` with `arguments` and `environment`, feeding `stdin` (nil: `/dev/null`)
  /// and writing `extra.data` into descriptor `extra.fd`, capturing both outputs.
  ///
  /// - Parameters:
  ///   - detach: start the child in a new session, so it has no controlling terminal.
  ///   - directory: the child's working directory (nil: the caller's).
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String],
    stdin: [UInt8]? = nil, extra: (fd: Int32, data: [UInt8])? = nil, detach: Bool = true,
    directory: String? = nil
  ) -> Result {
    var inPipe: [Int32] = [-1, -1]
    var outPipe: [Int32] = [-1, -1]
    var errPipe: [Int32] = [-1, -1]
    var extraPipe: [Int32] = [-1, -1]
    makePipe(&inPipe)
    makePipe(&outPipe)
    makePipe(&errPipe)
    if extra != nil { makePipe(&extraPipe) }

    var spawn = Spawn(
      executable: executable, arguments: [executable] + arguments, environment: environment,
      descriptors: [
        (0, stdin != nil ? .descriptor(inPipe[0]) : .devNull(writable: false)),
        (1, .descriptor(outPipe[1])), (2, .descriptor(errPipe[1])),
      ],
      directory: directory, newSession: detach)
    if let extra { spawn.descriptors.append((extra.fd, .descriptor(extraPipe[0]))) }
    let pid: pid_t
    do {
      pid = try spawn.start()
    } catch {
      for fd in inPipe + outPipe + errPipe + extraPipe where fd >= 0 { close(fd) }
      return Result(status: 127, stdout: [], stderr: Array("spawn failed: \(error.code)\n".utf8))
    }
    for fd in [inPipe[0], outPipe[1], errPipe[1], extraPipe[0]] where fd >= 0 { close(fd) }

    let group = DispatchGroup()
    signal(SIGPIPE, SIG_IGN)
    if let stdin { feed(inPipe[1], stdin, in: group) } else { close(inPipe[1]) }
    if let extra { feed(extraPipe[1], extra.data, in: group) }

    final class Box: @unchecked Sendable { var bytes: [UInt8] = [] }
    let errBox = Box()
    let errFD = errPipe[0]
    group.enter()
    DispatchQueue.global().async {
      errBox.bytes = drain(errFD)
      group.leave()
    }
    let out = drain(outPipe[0])
    group.wait()
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Result(status: code, stdout: out, stderr: errBox.bytes)
  }

  /// Writes `data` to `fd` on a thread of its own, then closes it.
  ///
  /// `group` is entered now and left when done. A reader that stops reading ends the write
  /// (EPIPE, with SIGPIPE ignored).
  static func feed(_ fd: Int32, _ data: [UInt8], in group: DispatchGroup) {
    group.enter()
    DispatchQueue.global().async {
      var offset = 0
      while offset < data.count {
        let n = data[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        offset += n
      }
      close(fd)
      group.leave()
    }
  }

  /// Makes a pipe into `fds` (read end first), both ends close-on-exec; -1s when it cannot.
  static func makePipe(_ fds: inout [Int32]) {
    fds.withUnsafeMutableBufferPointer { buffer in
      if let base = buffer.baseAddress { _ = pipe(base) }
    }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
  }

  /// Everything `fd` gives until end of file, or until more than `limit` bytes came (a reader
  /// that must not be flooded); then closes it.
  static func drain(_ fd: Int32, atMost limit: Int = .max) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while out.count <= limit {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      out.append(contentsOf: buffer[0..<n])
    }
    close(fd)
    return out
  }

  /// Starts `executable` with the caller's standard input and outputs, in a new session without
  /// a controlling terminal (so nothing it runs can prompt); its process group id is its pid.
  ///
  /// - Returns: the child's pid, or nil when it could not be started.
  public static func startInheriting(
    _ executable: String, _ arguments: [String], environment: [String: String]
  ) -> pid_t? {
    try? Spawn(
      executable: executable, arguments: [executable] + arguments, environment: environment,
      newSession: true
    ).start()
  }

  /// Starts `executable` in a new session without a controlling terminal, its standard input
  /// `/dev/null` and its standard output and error `output` (a descriptor this process opened),
  /// and does not wait for it: a background job that outlives the command.
  ///
  /// - Returns: the child's pid, or nil when it could not be started.
  public static func startDetached(
    _ executable: String, _ arguments: [String], environment: [String: String], output: Int32
  ) -> pid_t? {
    try? Spawn(
      executable: executable, arguments: [executable] + arguments, environment: environment,
      descriptors: [
        (0, .devNull(writable: false)), (1, .descriptor(output)), (2, .descriptor(output)),
      ],
      newSession: true, signals: .standardUnblocked
    ).start()
  }

  /// Waits for a child to end.
  ///
  /// - Returns: its exit status, or 128 + signal when it was killed.
  public static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }
}
