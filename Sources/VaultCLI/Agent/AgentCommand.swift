import CPlatform
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault __agent`.
struct AgentCommand: VaultCommand {
  static let about = CommandAbout(
    "__agent", "Run the unlock agent (started by 'vault unlock').", hidden: true)

  @FlagParameter(Keys.persistent) var persistent

  func run(_ context: Context) throws -> Int32 {
    let environment = context.environment
    chdir("/")
    let folder = AgentSocket.folder(environment)
    try PrivateFiles.ensurePrivateDirectory(folder)
    let lockFD = open(folder + "/agent.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard lockFD >= 0 else { throw CommandFailed("cannot open \(folder)/agent.lock") }
    // Another agent serves this folder: nothing to do.
    guard flock(lockFD, LOCK_EX | LOCK_NB) == 0 else { return ExitCode.success.rawValue }
    let path = AgentSocket.path(environment)
    unlink(path)
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0, vault_unix_address(listener, path, 1) == 0 else {
      throw CommandFailed("cannot listen on \(path): \(String(cString: strerror(errno)))")
    }
    chmod(path, 0o600)
    var loop = AgentLoop(listener: listener, socketPath: path, environment: environment)
    loop.persistent = persistent
    loop.serve()
    // Only the socket this agent made is removed (a later agent may have replaced it).
    var info = stat()
    if stat(path, &info) == 0, info.st_ino == loop.socketInode { unlink(path) }
    return ExitCode.success.rawValue
  }
}
