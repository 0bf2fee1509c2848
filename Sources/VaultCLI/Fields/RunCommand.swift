import CPlatform
import Glibc
import VaultCore
import VaultFormat

/// `vault run --env VAR=NAME[:FIELD] … -- COMMAND ARGS`: replaces itself with COMMAND, run with
/// those variables set to the values, so COMMAND's exit status is the command's.
///
/// COMMAND gets descriptors 0–2 only, no `VAULT_*` variable, and back the umask and signal
/// dispositions vault itself changed.
struct RunCommand: VaultCommand {
  static let about = CommandAbout(
    "run", "Run COMMAND with secrets in its environment: --env VAR=NAME[:FIELD] ... -- COMMAND.",
    discussion: """
      Reads each value (the field FIELD of entry NAME; without FIELD the password, the first \
      line), then replaces itself with COMMAND, so COMMAND's exit status is the command's. \
      The text after the last ':' is the field: a name with a ':' in it is written with its \
      field (a:b:password). COMMAND is searched on PATH and gets descriptors 0-2 only, no \
      VAULT_ variable (not even VAULT_SESSION), and the umask and signal dispositions vault \
      was started with. With a session a guarded entry is refused, since its read needs fresh \
      authentication. Without --env nothing is unlocked. Put -- before COMMAND so its options \
      are not read as vault's. A variable in the environment is visible to COMMAND and to \
      whatever it starts, and to the same user through /proc while it runs.
      """)

  @RepeatedOption(Keys.env) var env
  @VariadicArgument(Keys.runCommand) var runCommand

  func run(_ context: Context) throws -> Int32 {
    let assignments = env
    var seen = Set<String>()
    for assignment in assignments where !seen.insert(assignment.variable).inserted {
      throw UsageError(
        message: "--env gives \(assignment.variable) twice", path: context.path)
    }
    let command = runCommand
    guard let program = command.first else {
      throw UsageError(message: "no COMMAND to run", path: context.path)
    }
    var variables = ChildHygiene.environment(context.environment.variables)
    guard let path = Self.resolve(program, path: variables["PATH"]) else {
      throw VaultError.programNotFound(program)
    }
    if !assignments.isEmpty {
      let unlocked = try context.open(.use(reason: "give secrets to '\(program)'"))
      for assignment in assignments {
        let value = try assignment.reference.value(in: unlocked)
        // The variable's value leaves guarded memory here: execve copies the environment into
        // the new program, which is what it asked for.
        variables[assignment.variable] = String(decoding: value.unprotectedBytes, as: UTF8.self)
      }
    }
    // In the agent's worker, the client replaces itself with the program: it runs in the
    // user's shell, with its terminal and process group.
    if let session = context.session {
      session.handOff(path: path, arguments: command, environment: variables)
    }
    Hardening.restoreInherited()
    // The program never runs with the group of a set-group-id install (vault(1) SECURITY).
    guard vault_drop_group() == 0 else {
      throw VaultError.programNotStarted(program, reason: String(cString: strerror(errno)))
    }
    if vault_cloexec_from(3) != 0 { Self.markInheritedCloseOnExec() }
    let arguments = CStringVector(command)
    let environment = CStringVector(environment: variables)
    execve(path, arguments.pointers, environment.pointers)
    if errno == ENOEXEC {
      // A script without a #! line is run by the shell, as execvp(3) and shells do.
      let shell = CStringVector(["/bin/sh", path] + command.dropFirst())
      execve("/bin/sh", shell.pointers, environment.pointers)
    }
    let reason = errno
    Hardening.apply()
    throw VaultError.programNotStarted(program, reason: String(cString: strerror(reason)))
  }

  /// One `--env` value, checked by the parser before anything is unlocked.
  struct Assignment: ArgumentValue {
    let variable: String
    let reference: SecretReference

    /// - Throws: `ValueError` (exit 64) for a word that is not `VAR=NAME[:FIELD]` or a VAR that
    ///   is no variable name or starts with `VAULT_`; `VaultError.invalidInput` (exit 5) for a
    ///   bad entry name or field key.
    init(argument text: String, label: String) throws {
      guard let equals = text.firstIndex(of: "=") else {
        throw ValueError("\(label) needs VAR=NAME[:FIELD], not '\(text)'")
      }
      variable = String(text[..<equals])
      let validName =
        variable.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
        && variable.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
      guard validName else {
        throw ValueError(
          "invalid value for \(label): '\(variable)' is not a variable name (letters, digits and"
            + " '_', not starting with a digit)")
      }
      guard !variable.hasPrefix("VAULT_") else {
        throw ValueError(
          "invalid value for \(label): VAULT_ variables are vault's own and never reach a child"
            + " program")
      }
      reference = try SecretReference(String(text[text.index(after: equals)...]))
    }

    /// Nothing to offer.
    static var completion: CompletionKind { .none }
  }

  /// `program` when it names a path that exists, else the first executable `program` on `path`
  /// (as a shell searches `PATH`); nil when there is none.
  static func resolve(_ program: String, path: String?) -> String? {
    if program.contains("/") { return access(program, F_OK) == 0 ? program : nil }
    for folder in (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
    {
      let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + program
      var info = stat()
      if access(candidate, X_OK) == 0, stat(candidate, &info) == 0,
        info.st_mode & S_IFMT != S_IFDIR
      {
        return candidate
      }
    }
    return nil
  }

  /// Without close_range(2): every open descriptor from 3 up, from /proc/self/fd, gets
  /// FD_CLOEXEC.
  private static func markInheritedCloseOnExec() {
    guard let folder = opendir("/proc/self/fd") else { return }
    var descriptors: [Int32] = []
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      if let fd = Int32(name), fd > 2 { descriptors.append(fd) }
    }
    closedir(folder)
    for fd in descriptors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
  }
}
