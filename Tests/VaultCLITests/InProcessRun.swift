import Dispatch
import Foundation

@testable import VaultCLI

/// Runs `vault`'s or `biosim`'s real entry point (`VaultMain.run`, `BiosimMain.run`) in this
/// process, as the built binary would run.
///
/// Standard input, output and error are pipes put on
/// descriptors 0, 1 and 2 for the run (the test's own are put back after), the `--pin-fd` lines
/// come through a pipe of their own, the working folder is the sandbox's, and there is no
/// terminal. What it returns is what `Subprocess.run` returns for the binary.
///
/// XCTest runs one test at a time in a process (`--parallel` runs several processes), so moving
/// the standard descriptors for a run disturbs no other test. A run must not end the process:
/// commands that replace it (`vault run`), start or talk to the agent (which checks that its
/// client is the same program), or stop at a test crash point run the built binary instead
/// (`Sandbox.mustSpawn`).
enum InProcessRun {
  /// Which program's entry point runs.
  enum Program {
    case vault
    case biosim
  }

  /// Runs `program` with `arguments`, feeding `stdin` (nil: `/dev/null`) and `pin` (the lines of
  /// `--pin-fd`, whose descriptor number is appended to the arguments), in `directory`.
  static func run(
    _ program: Program, _ arguments: [String], environment: [String: String],
    stdin: [UInt8]?, pin: [UInt8]?, directory: String
  ) -> Subprocess.Result {
    let input = stdin.map(feed) ?? open("/dev/null", O_RDONLY | O_CLOEXEC)
    let pinFD = pin.map(feed)
    let output = pipePair()
    let errors = pipePair()
    let saved = (0...2).map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
    let folder = FileManager.default.currentDirectoryPath
    let mask = umask(0o022)
    umask(mask)

    final class Box: @unchecked Sendable { var bytes: [UInt8] = [] }
    let (out, err) = (Box(), Box())
    let group = DispatchGroup()
    for (fd, box) in [(output.read, out), (errors.read, err)] {
      group.enter()
      DispatchQueue.global().async {
        box.bytes = Subprocess.drain(fd)
        group.leave()
      }
    }

    dup2(input, 0)
    dup2(output.write, 1)
    dup2(errors.write, 2)
    for fd in [input, output.write, errors.write] { close(fd) }
    _ = directory.withCString { chdir($0) }
    let status: Int32
    switch program {
    case .vault:
      let full = arguments + (pinFD.map { ["--pin-fd", String($0)] } ?? [])
      status = VaultMain.run(
        full, environment: environment, terminal: nil,
        executable: Sandbox.binDirectory + "/vault")
    case .biosim:
      status = BiosimMain.run(arguments, environment: environment, terminal: nil)
    }
    _ = folder.withCString { chdir($0) }
    umask(mask)
    for (index, fd) in saved.enumerated() {
      dup2(fd, Int32(index))
      close(fd)
    }
    if let pinFD { close(pinFD) }
    group.wait()
    return Subprocess.Result(status: status, stdout: out.bytes, stderr: err.bytes)
  }

  /// The read end of a pipe a background thread writes `data` into, then closes.
  private static func feed(_ data: [UInt8]) -> Int32 {
    let pair = pipePair()
    Subprocess.feed(pair.write, data, in: DispatchGroup())
    return pair.read
  }

  /// A pipe, both ends close-on-exec (`Subprocess.makePipe`).
  private static func pipePair() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    Subprocess.makePipe(&fds)
    precondition(fds[0] >= 0 && fds[1] >= 0, "pipe: \(errno)")
    return (fds[0], fds[1])
  }
}
