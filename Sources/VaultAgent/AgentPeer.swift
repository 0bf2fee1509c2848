import CPlatform
import Glibc
import VaultFormat

/// Who listens on the agent's socket, as the kernel identifies it, checked before anything that
/// is or can carry a secret goes to it (vault(1) SECURITY; review of 0.11.0, item 2).
///
/// The rules, on the connection itself:
/// - the peer runs as this user (`SO_PEERCRED` uid);
/// - its process is held by a pidfd the kernel bound to the connection (`SO_PEERPIDFD`, Linux
///   6.5; `pidfd_open` of the `SO_PEERCRED` pid before), still running after the checks, so a
///   process that took a pid over fails;
/// - where vault is installed set-group-id (`installGroup`), its group (`SO_PEERCRED` gid) is
///   vault's, which no other program of the user can have;
/// - its executable (`/proc/PID/exe`) is the same file (device and inode) as this process's;
/// - it is not dumpable: its `/proc/PID` files belong to root while it runs as another user;
/// - it speaks first on the connection (`hello`), and the kernel names it as the writer
///   (`SCM_CREDENTIALS`), so a process that became vault after it called `listen` while another
///   reads the connection fails.
///
/// A process without `CAP_SYS_PTRACE` cannot read the executable of a non-dumpable process of
/// its own: there, a hidden executable of a non-dumpable peer is taken as the agent's, and only
/// the set-group-id install tells the agent from another non-dumpable program (vault(1) says
/// so). A listener in another language, a relay that renamed the real socket, a stale socket:
/// each fails one of the rules.
public enum AgentPeer {
  /// The group of a set-group-id install: the effective group this process started with, when
  /// it is not its real one; nil otherwise.
  public static let installGroup: gid_t? = getegid() != getgid() ? getegid() : nil

  /// Checks that `socket`'s peer is vault's agent.
  ///
  /// - Parameter path: The socket's path, for the error.
  /// - Throws: `AgentError.socketOfAnotherUser` when the peer is another user's process;
  ///   `VaultError.agentImpostor` naming what was found otherwise.
  public static func verify(_ socket: AgentSocket, path: String) throws {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
    guard vault_peer_credentials(socket.fd, &pid, &uid, &gid) == 0 else {
      throw VaultError.agentImpostor(socket: path, pid: 0, finding: .noPeer)
    }
    guard uid == geteuid() else {
      throw AgentError.socketOfAnotherUser(socket: path)
    }
    func impostor(_ finding: PeerFinding) -> VaultError {
      .agentImpostor(socket: path, pid: pid, finding: finding)
    }
    var pidfd = vault_peer_pidfd(socket.fd)
    if pidfd < 0 { pidfd = vault_pidfd_open(pid) }
    guard pidfd >= 0 else { throw impostor(.notHeld) }
    defer { close(pidfd) }
    if let group = installGroup, gid != group {
      throw impostor(.wrongGroup(gid, expected: group))
    }
    var own = stat()
    var theirs = stat()
    guard stat("/proc/self/exe", &own) == 0 else {
      throw impostor(.ownExecutableUnreadable)
    }
    if stat("/proc/\(pid)/exe", &theirs) == 0 {
      guard theirs.st_dev == own.st_dev, theirs.st_ino == own.st_ino else {
        throw impostor(.otherProgram(program(pid)))
      }
      if uid != 0, !hidesItself(pid) { throw impostor(.dumpable) }
    } else if errno == EACCES || errno == EPERM {
      // The kernel hides the executable of a non-dumpable process from this one.
      guard hidesItself(pid) else { throw impostor(.executableUnreadable) }
    } else {
      throw impostor(.ended)
    }
    // The process that listens must be the one that speaks: a process that called `listen`,
    // then handed the socket to a child and became vault by `execve`, passes every check above
    // while the child reads the connection.
    guard let writer = socket.receiveHello() else {
      throw impostor(.noGreeting)
    }
    guard writer == pid else {
      throw impostor(.anotherWriter(pid: writer))
    }
    guard vault_pidfd_alive(pidfd) != 0 else { throw impostor(.ended) }
  }

  /// True when `pid` is not dumpable: the kernel then gives its `/proc/PID` files to root.
  static func hidesItself(_ pid: Int32) -> Bool {
    var info = stat()
    return stat("/proc/\(pid)/stat", &info) == 0 && info.st_uid == 0
  }

  /// The path of `pid`'s executable, when this process may read it.
  static func program(_ pid: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
