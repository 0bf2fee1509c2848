import CPlatform
import Foundation
import Glibc
import VaultCore

/// Entry point of the `vault` executable: hardening, parsing, dispatch, and the one place where
/// errors become a message on standard error and an exit code.
public enum VaultMain {
  /// Runs `vault` with `arguments` (without the program name) and returns the exit code.
  public static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
    Hardening.apply()
    let program = VaultCommands.program
    let invocation: Invocation
    do {
      invocation = try Parser.parse(arguments, program: program)
    } catch let error as UsageError {
      return reportUsage(error, program: program)
    } catch {
      return 1
    }
    if invocation.flag("version") && invocation.path.isEmpty {
      Output.print("vault \(program.version)\n")
      return 0
    }
    if invocation.flag("help") {
      Output.print(Help.text(program, path: invocation.path))
      return 0
    }
    if invocation.path == ["help"] {
      guard let target = program.canonicalPath(invocation.arguments) else {
        return reportUsage(
          UsageError(
            message: "unknown command '\(invocation.arguments.joined(separator: " "))'",
            path: ["help"]),
          program: program)
      }
      Output.print(Help.text(program, path: target))
      return 0
    }
    if invocation.path == ["__complete"] {
      // Before any handler that could prompt or report: completion never speaks.
      return CompleteCommand.run(invocation, environment: VaultEnvironment(variables: environment))
    }
    do {
      let context = try Context(
        invocation: invocation, environment: VaultEnvironment(variables: environment))
      EditFolder.removeStale(context.environment)
      return try dispatch(context)
    } catch let error as UsageError {
      return reportUsage(error, program: program)
    } catch let error as VaultError {
      let report = ExitStatus.report(error)
      Output.error("vault: error: \(report.message)")
      if let hint = report.hint {
        Output.error("vault: hint: \(forVault(hint, invocation.value("vault")))")
      }
      return report.code
    } catch {
      Output.error("vault: error: \(error)")
      return 1
    }
  }

  static func dispatch(_ context: Context) throws -> Int32 {
    switch context.invocation.path {
    case ["init"]: return try VaultCommandsRun.initialize(context)
    case ["add"]: try EntryCommandsRun.add(context)
    case ["get"]: try EntryCommandsRun.get(context)
    case ["list"]: try EntryCommandsRun.list(context)
    case ["rm"]: try EntryCommandsRun.remove(context)
    case ["mv"]: try EntryCommandsRun.move(context)
    case ["passwd"]: try VaultCommandsRun.passwd(context)
    case ["recover"]: try VaultCommandsRun.recover(context)
    case ["status"]: try VaultCommandsRun.status(context)
    case ["unlock"]: try SessionCommandsRun.unlock(context)
    case ["lock"]: try SessionCommandsRun.lock(context)
    case ["biometry", "activate"]: try SessionCommandsRun.activate(context)
    case ["biometry", "deactivate"]: try SessionCommandsRun.deactivate(context)
    case ["biometry", "status"]: try SessionCommandsRun.biometryStatus(context)
    case ["tour"]: return try Tour.run(context)
    case ["check"]: try MaintenanceCommandsRun.check(context)
    case ["backup"]: try MaintenanceCommandsRun.backup(context)
    case ["edit"]: return try EditCommandRun.run(context)
    case ["journal"]: return try JournalCommandsRun.write(context)
    case ["journal", "list"]: try JournalCommandsRun.list(context)
    case ["journal", "show"]: try JournalCommandsRun.show(context)
    case ["journal", "edit"]: return try JournalCommandsRun.edit(context)
    case ["grep"]: return try GrepCommandRun.run(context)
    case ["generate"]: try GenerateCommandRun.run(context)
    case ["__clip-clear"]: try Clipboard.clearLater(context)
    case ["completions"]: return try CompletionsCommand.print(context.invocation)
    default:
      throw VaultError.storage("no handler for '\(context.invocation.path.joined(separator: " "))'")
    }
    return 0
  }

  /// A hint that names a vault command, made to name the same vault as `--vault PATH` did.
  static func forVault(_ hint: String, _ path: String?) -> String {
    guard let path, !path.isEmpty else { return hint }
    let quoted = "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    return hint.replacingOccurrences(of: "vault unlock", with: "vault unlock --vault \(quoted)")
  }

  static func reportUsage(_ error: UsageError, program: ProgramSpec) -> Int32 {
    let name = program.root.name
    Output.error("\(name): error: \(error.message)")
    if let hint = error.hint { Output.error("\(name): hint: \(hint)") }
    Output.error("Usage: \(Help.usage(program, path: error.path))")
    return ExitStatus.usage
  }
}

/// Process hardening done before anything else: no core dumps (`RLIMIT_CORE` 0,
/// `PR_SET_DUMPABLE` 0), a 077 umask, and SIGPIPE ignored so a closed pipe is an `EPIPE` we handle.
enum Hardening {
  static func apply() {
    _ = vault_disable_core_dumps()
    umask(0o077)
    signal(SIGPIPE, SIG_IGN)
  }
}
