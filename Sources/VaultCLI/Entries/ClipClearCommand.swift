import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault __clip-clear TOOL`: reads the copy's token and the secret from standard input
/// (one byte giving the token's length, the token, the secret), waits, and clears the
/// clipboard if no later copy owns it (`ClipboardOwner.owns`) and it still holds exactly that
/// secret.
struct ClipClearCommand: VaultCommand {
  static let about = CommandAbout(
    "__clip-clear", "Clear the clipboard later if it still holds the secret on standard input.",
    hidden: true)

  @OptionParameter(Keys.clipTime) var clipTime
  @ArgumentParameter(Keys.clipTool) var clipTool

  func run(_ context: Context) throws -> Int32 {
    let tool = clipTool
    let seconds = clipTime ?? Clipboard.defaultSeconds
    let length = try LineReader.readAll(fd: 0, limit: 1).withBytes { $0.first.map(Int.init) ?? 0 }
    let token = try LineReader.readAll(fd: 0, limit: length).unprotectedBytes
    let secret = try LineReader.readAll(fd: 0)
    close(0)
    var pause = timespec(tv_sec: seconds, tv_nsec: 0)
    var left = timespec()
    while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
    guard ClipboardOwner.owns(token, context.environment) else { return ExitCode.success.rawValue }
    let variables = context.environment.variables
    let (program, arguments) = tool.paste
    var pasted = Subprocess.run(
      ProgramSearch.find(program, variables) ?? program, arguments,
      environment: ChildHygiene.environment(variables))
    defer { wipe(&pasted.stdout) }
    guard pasted.status == 0, SecureBytes(copying: pasted.stdout) == secret else {
      return ExitCode.success.rawValue
    }
    let clear = tool.clear
    let clearer = try ClipboardProcess.start(
      ProgramSearch.find(clear.program, variables) ?? clear.program, clear.arguments,
      environment: variables,
      detach: false)
    _ = clearer.finish(input: SecureBytes(count: 0))
    return ExitCode.success.rawValue
  }
}
