import Dispatch
import Glibc

extension MenuProgram {
  /// The most a menu may print: one name and its line ending, with room to spare.
  static let answerLimit = 4 * 4096

  /// Shows `names` (one per line) in the menu and returns the line it printed, without its line
  /// ending.
  ///
  /// The menu gets the names on standard input and nothing else of the vault; its standard
  /// error and the terminal are this process's; its environment is `variables` without vault's
  /// own (`ChildHygiene`). Meanwhile Ctrl-C and Ctrl-\ are the menu's (ignored here, as an
  /// editor's are).
  ///
  /// - Throws: `Cancelled` when it exits 1 or 130 (Escape in dmenu, rofi and fzf) or prints
  ///   nothing; `CommandFailed` when it cannot be started, is killed, exits with another
  ///   status, or prints more than one line or more than `answerLimit` bytes.
  func choose(_ names: [UInt8], variables: [String: String]) throws -> String {
    var input: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    Subprocess.makePipe(&input)
    Subprocess.makePipe(&output)
    guard input.allSatisfy({ $0 >= 0 }), output.allSatisfy({ $0 >= 0 }) else {
      for fd in input + output where fd >= 0 { close(fd) }
      throw CommandFailed("cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    let saved = SavedSignals([SIGINT, SIGQUIT])
    signal(SIGINT, SIG_IGN)
    signal(SIGQUIT, SIG_IGN)
    defer { saved.restore() }
    let pid: pid_t
    do {
      pid = try Spawn(
        executable: path, arguments: arguments, environment: ChildHygiene.environment(variables),
        descriptors: [(0, .descriptor(input[0])), (1, .descriptor(output[1]))],
        signals: .interactive
      ).start()
    } catch {
      for fd in input + output { close(fd) }
      throw CommandFailed("cannot start the menu \(name): \(error.reason)")
    }
    close(input[0])
    close(output[1])
    // The names go in on a thread of their own: a menu may print before it has read them all,
    // or stop reading (a write to a closed pipe fails with EPIPE, which vault ignores).
    let group = DispatchGroup()
    Subprocess.feed(input[1], names, in: group)
    let answer = Subprocess.drain(output[0], atMost: Self.answerLimit)
    // One that goes on past the bound is ended, whatever it does with SIGTERM.
    if answer.count > Self.answerLimit { kill(pid, SIGKILL) }
    let status = Subprocess.wait(pid)
    group.wait()
    guard answer.count <= Self.answerLimit else {
      throw CommandFailed("the menu \(name) printed more than \(Self.answerLimit) bytes")
    }
    switch status {
    case 0: break
    case 1, 130: throw Cancelled(why: "nothing was picked")
    case 129...: throw CommandFailed("the menu \(name) was ended by signal \(status - 128)")
    default: throw CommandFailed("the menu \(name) failed with status \(status)")
    }
    var line = answer[...]
    if line.last == 10 { line = line.dropLast() }
    if line.last == 13 { line = line.dropLast() }
    guard !line.isEmpty else { throw Cancelled(why: "nothing was picked") }
    guard !line.contains(10) else {
      throw CommandFailed("the menu \(name) printed more than one line; pick one name")
    }
    return String(decoding: line, as: UTF8.self)
  }
}
