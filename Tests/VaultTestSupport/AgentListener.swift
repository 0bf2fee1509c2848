import CPlatform
import Glibc

/// The process listening on an agent socket, as the kernel names it (`SO_PEERCRED`), for tests
/// that stop or watch an agent: unlike `AgentSocket.connect`, which only vault's own executable
/// passes, it asks nothing of the listener.
public enum AgentListener {
  /// A connection to the process listening on `path` (the caller closes it), nil when none
  /// accepts one.
  public static func connection(_ path: String) -> Int32? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    guard vault_unix_address(fd, path, 0) == 0 else {
      close(fd)
      return nil
    }
    return fd
  }

  /// The pid of the process listening on `path`, nil when none accepts a connection.
  public static func pid(_ path: String) -> pid_t? {
    guard let fd = connection(path) else { return nil }
    defer { close(fd) }
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
    guard vault_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
    return pid
  }

  /// The path of `pid`'s executable, nil when it cannot be read.
  public static func program(_ pid: pid_t) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
