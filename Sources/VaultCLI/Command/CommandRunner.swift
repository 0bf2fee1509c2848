import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// An error of the command line itself (not the core's), with its exit code and message.
protocol ReportableError: Error {
  /// The exit code.
  var exitCode: ExitCode { get }
  /// The one-line message.
  var message: String { get }
  /// A line on what to do, when there is one.
  var hint: String? { get }
}

extension ReportableError {
  var hint: String? { nil }
}

/// Runs one command line of a program: parse, `--version` and `--help` (which never run a
/// command), the handler from the table, and the one place where errors become a message on
/// standard error and an exit code.
enum CommandRunner {
  /// Parses `arguments` against `program` and runs the command's handler.
  ///
  /// - Parameters:
  ///   - session: the agent's worker session the command runs in, if any.
  ///   - prepare: runs before every handler that may speak (not `silent` ones).
  /// - Returns: the exit code.
  static func run(
    _ arguments: [String], program: ProgramSpec, environment: [String: String],
    session: WorkerSession? = nil, prepare: (Context) -> Void = { _ in }
  ) -> Int32 {
    let name = program.root.name
    if arguments.isEmpty && !program.example.isEmpty {
      Output.error(Help.short(program))
      return ExitCode.usage.rawValue
    }
    let invocation: Invocation
    do {
      invocation = try Parser.parse(arguments, program: program)
    } catch {
      return fail(error, name: name, vaultPath: nil, program: program)
    }
    if invocation.flag(Keys.version) {
      Output.print("\(name) \(program.version)\n")
      return ExitCode.success.rawValue
    }
    if invocation.flag(Keys.help) {
      Output.print(Help.text(program, path: invocation.path))
      return ExitCode.success.rawValue
    }
    guard let command = program.command(at: invocation.path), let handler = command.run else {
      // The parser refuses a group without a handler; a table test walks every path.
      Output.error("\(name): error: '\(invocation.path.joined(separator: " "))' has no handler")
      return ExitCode.failure.rawValue
    }
    let vaultPath = invocation.value(Keys.vault.spec.long)
    // A silent command (completion, the agent's check) never speaks, not even a note.
    if command.silent { RunScope.current.quiet = true }
    var opened: Context?
    do {
      let context = try Context(
        invocation: invocation, environment: VaultEnvironment(variables: environment),
        session: session)
      opened = context
      if program.agentCommands.contains(invocation.path) {
        if command.silent {
          if let code = try? AgentForwarding.run(context, arguments: arguments) { return code }
        } else if let code = try AgentForwarding.run(context, arguments: arguments) {
          return code
        } else if let code = try PinentryPrompt.unlock(context) {
          // No terminal: the agent asked through a pinentry; now it serves the command.
          guard code == ExitCode.success.rawValue else { return code }
          if let code = try AgentForwarding.run(context, arguments: arguments) { return code }
        }
      }
      if command.silent { return (try? handler(context)) ?? ExitCode.success.rawValue }
      prepare(context)
      let code = try handler(context)
      if code == ExitCode.success.rawValue && program.root.name == "vault" {
        AutoSync.afterCommand(context, path: invocation.path)
        if program.agentCommands.contains(invocation.path) { UnlockHint.afterCommand(context) }
      }
      return code
    } catch {
      if command.silent { return ExitCode.success.rawValue }
      return fail(error, name: name, vaultPath: vaultPath, program: program, context: opened)
    }
  }

  private static func fail(
    _ error: Error, name: String, vaultPath: String?, program: ProgramSpec,
    context: Context? = nil
  ) -> Int32 {
    switch VaultError(error) ?? error {
    case let usage as UsageError:
      return reportUsage(usage, program: program)
    case let vault as VaultError:
      var sensor: SensorState?
      switch vault {
      case .enrollmentChanged, .biometryDisabled, .biometryNotActivated, .notEnrolled:
        sensor = ReactivationSteps.sensor(context)
      default: break
      }
      let (code, message, reported) = ExitStatus.report(vault, sensor: sensor)
      var hint = reported
      if case .notFound(let missing) = vault, let names = context?.openedNames() {
        hint = NameSuggestion.hint(for: missing, among: names) ?? hint
      }
      if case .locked = vault, let context {
        if let steps = ReactivationSteps.beforeUnlock(context) {
          hint = steps
        } else if case .locked(.noSessionNoTerminal) = vault,
          let missing = PinentryChoice.missingHint(context)
        {
          hint = missing
        } else if !(context.sessionToken ?? "").isEmpty,
          (try? AgentClient(environment: context.environment).status(
            vaultPath: context.vaultPath)) != nil
        {
          // A session given is the command's credential, so the agent was not asked.
          hint =
            "the unlock agent holds this vault and serves a shell without a session: run 'unset"
            + " VAULT_SESSION'"
        }
      }
      if case .otherDevice = vault, let path = context?.vaultPath,
        access(GitRepository.path(forVault: path) + "/" + SyncSupport.cloneMarker, F_OK) == 0
      {
        // No PIN of this device's yet: the clone that made the file was cut short.
        hint =
          "an unfinished 'vault sync clone' made this file; run 'vault sync clone REMOTE' again"
      }
      Output.error("\(name): error: \(Output.printable(message))")
      if let hint {
        Output.error("\(name): hint: \(Output.printable(forVault(hint, vaultPath)))")
      }
      return code.rawValue
    case let located as LocatedError:
      let (code, message, hint) = located.report
      Output.error(
        "\(name): error: \(Output.printable(located.location)): \(Output.printable(message))")
      if let hint { Output.error("\(name): hint: \(Output.printable(hint))") }
      return code.rawValue
    case let known as ReportableError:
      Output.error("\(name): error: \(Output.printable(known.message))")
      if let hint = known.hint {
        Output.error("\(name): hint: \(Output.printable(forVault(hint, vaultPath)))")
      }
      return known.exitCode.rawValue
    default:
      Output.error("\(name): error: \(error)")
      return ExitCode.failure.rawValue
    }
  }

  /// A hint that names a vault command, made to name the same vault as `--vault PATH` did.
  ///
  /// The path is bare when it needs no quoting; else in single quotes, or in double quotes where
  /// the hint itself quotes the command in single quotes (`'vault unlock --force'`).
  static func forVault(_ hint: String, _ path: String?) -> String {
    guard let path, !path.isEmpty else { return hint }
    var word = ShellWord.argument(path)
    if word.hasPrefix("-- ") { word = "'" + path.replacing("'", with: #"'\''"#) + "'" }
    if word.hasPrefix("'") && hint.contains("'vault unlock") {
      var escaped = ""
      for character in path {
        if "\\\"$`".contains(character) { escaped.append("\\") }
        escaped.append(character)
      }
      word = "\"" + escaped + "\""
    }
    return hint.replacing("vault unlock", with: "vault unlock --vault \(word)")
  }

  /// Prints a usage error with its hint and the command's usage line; returns 64.
  static func reportUsage(_ error: UsageError, program: ProgramSpec) -> Int32 {
    let name = program.root.name
    Output.error("\(name): error: \(Output.printable(error.message))")
    if let hint = error.hint { Output.error("\(name): hint: \(Output.printable(hint))") }
    Output.error("Usage: \(Help.usage(program, path: error.path))")
    return ExitCode.usage.rawValue
  }
}

extension BiometryControlError: ReportableError {
  /// A refused sensor control is invalid input (5).
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user, without a program prefix or a final period.
  var message: String {
    switch self {
    case .noHardware:
      "the simulated device has no biometric hardware; choose one with `biosim hardware`"
    case .noSuchTemplate(let label):
      "no enrolled template is labelled '\(label)'"
    case .duplicateLabel(let label):
      "a template labelled '\(label)' is already enrolled"
    case .invalidCount(let count):
      "the count must be between 1 and \(SensorControls.maximumQueueCount), not \(count)"
    case .invalidLabel(let label):
      "the label \(label.debugDescription) is not valid: use 1 to "
        + "\(SensorControls.maximumLabelBytes) bytes, no control characters, "
        + "no leading or trailing spaces"
    case .enrollmentFull(let type, let limit):
      "\(type.displayName) holds \(limit) \(type.templateWord)"
        + (limit == 1 ? "" : type == .faceID ? "s (an appearance and one alternate)" : "s")
        + " at most; remove one first with `biosim unenroll --label LABEL`"
    case .passcodeNotSet:
      "enrolling needs a device passcode; set one with `biosim passcode set`"
    case .notExternal(let availability):
      "only a removable sensor can be \(availability.rawValue); choose one with"
        + " `biosim hardware TYPE --external`"
    case .cannotUnlockDevice(let why):
      "the device cannot be unlocked with biometry now: \(why.words)"
    }
  }
}
