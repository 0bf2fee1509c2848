import Dispatch
import Glibc
import VaultCrypto

extension AgentForwarding {
  /// What a command the agent ran for this process left: its exit code and what it wrote on
  /// standard output.
  struct Captured {
    /// The command's exit code (its errors went to this process's standard error).
    let code: Int32
    /// Its standard output, in guarded memory.
    let output: SecureBytes
  }

  /// Runs `arguments` through the agent as `run` does, with standard input `/dev/null` and
  /// standard output read into guarded memory, at most `limit` bytes.
  ///
  /// The output comes through a pipe read while the command runs (never a file), so nothing of
  /// it is left anywhere when this returns. A command that writes more than `limit` bytes is
  /// read to its end and refused.
  ///
  /// - Returns: nil when the agent did not run it (as `run`).
  /// - Throws: `InputRefused` when the output is larger than `limit`; `CommandFailed` when no
  ///   pipe can be made; as `run`.
  static func capture(_ context: Context, arguments: [String], limit: Int) throws -> Captured? {
    var fds: [Int32] = [-1, -1]
    Subprocess.makePipe(&fds)
    guard fds.allSatisfy({ $0 >= 0 }) else {
      throw CommandFailed("cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
    defer { if input >= 0 { close(input) } }
    let reader = PipeReader(fd: fds[0], limit: limit)
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      reader.drain()
      group.leave()
    }
    let code: Int32?
    do {
      code = try run(context, arguments: arguments, input: max(input, 0), output: fds[1])
    } catch {
      close(fds[1])
      group.wait()
      throw error
    }
    close(fds[1])
    group.wait()
    guard let code else { return nil }
    guard !reader.overflowed else {
      throw InputRefused("the answer is larger than \(limit) bytes")
    }
    return Captured(code: code, output: reader.bytes.finish())
  }
}

/// Reads a pipe to its end into guarded memory, keeping at most `limit` bytes.
private final class PipeReader: @unchecked Sendable {
  let fd: Int32
  let limit: Int
  /// What was read, up to `limit` bytes.
  var bytes = ByteBuilder(packed: true)
  /// True when more than `limit` bytes came.
  var overflowed = false

  init(fd: Int32, limit: Int) {
    self.fd = fd
    self.limit = limit
  }

  /// Reads until end of file, then closes the descriptor.
  func drain() {
    let chunk = SecureBytes(count: 16384)
    while true {
      let n = chunk.withMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      if bytes.count + n > limit {
        overflowed = true
        continue
      }
      chunk.withBytes { bytes.append($0.prefix(n)) }
    }
    close(fd)
  }
}
