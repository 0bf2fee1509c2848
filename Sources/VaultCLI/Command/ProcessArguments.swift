import FoundationEssentials
import Glibc

/// The process's arguments, decoded strictly.
///
/// `CommandLine.arguments` repairs invalid UTF-8 into U+FFFD, which would make different byte
/// strings one entry name; here an argument that is not valid UTF-8 is refused instead.
enum ProcessArguments {
  /// The arguments after the program name, or the 1-based position of the first invalid one.
  static func decode() -> Result<[String], InvalidArgument> {
    var out: [String] = []
    for index in 1..<Int(CommandLine.argc) {
      guard let raw = CommandLine.unsafeArgv[index], let text = String(validatingCString: raw)
      else { return .failure(InvalidArgument(position: index)) }
      out.append(text)
    }
    return .success(out)
  }

  /// The environment as `environ` holds it: each `NAME=value` entry, the first of a repeated
  /// name winning as `getenv(3)` finds it; an entry without `=` is left out. (Read here rather
  /// than through `ProcessInfo`, whose set-up every command would pay at its start.)
  static func environment() -> [String: String] {
    var variables: [String: String] = [:]
    var cursor = environ
    while let entry = cursor.pointee {
      cursor += 1
      let text = String(cString: entry)
      guard let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let name = String(text[..<equals])
      if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
    }
    return variables
  }

  /// An argument that is not valid UTF-8.
  struct InvalidArgument: Error {
    /// 1-based position after the program name.
    var position: Int
  }

  /// Runs `body` with the decoded arguments, or reports the invalid one (exit 5).
  static func run(program: String, _ body: ([String]) -> Int32) -> Int32 {
    switch decode() {
    case .success(let arguments):
      return body(arguments)
    case .failure(let invalid):
      Output.error("\(program): error: argument \(invalid.position) is not valid UTF-8")
      return 5
    }
  }
}

extension VaultMain {
  /// The `vault` process: strict arguments and the real environment.
  public static func main() -> Int32 {
    ProcessArguments.run(program: "vault") {
      run($0, environment: ProcessArguments.environment())
    }
  }
}

extension BiosimMain {
  /// The `biosim` process: strict arguments and the real environment.
  public static func main() -> Int32 {
    ProcessArguments.run(program: "biosim") {
      run($0, environment: ProcessArguments.environment())
    }
  }
}
