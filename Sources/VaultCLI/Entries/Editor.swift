import CPlatform
import FoundationEssentials
import Glibc
import VaultCore
import VaultFormat

/// The user's editor: `$VISUAL`, else `$EDITOR`, else `vi`, started the way git starts it.
///
/// A plain program name or path is run directly; anything with spaces or shell syntax
/// (`code --wait`) runs as `sh -c '<editor> "$@"'`. vim and nvim get options that turn off swap,
/// backup, undo and viminfo files and keep a missing final newline missing. The editor's
/// environment has no `VAULT_SESSION` (plugins cannot read the vault) and `TMPDIR` pointing into
/// the private folder, so its own temporary files are removed with it.
struct Editor {
  /// Options for vim and nvim: no swap file (`-n`), no viminfo or ShaDa (`-i NONE`), and no
  /// backup, undo or swap files whatever the user's vimrc says.
  static let vimOptions = [
    "-n", "-i", "NONE", "--cmd",
    "set nobackup nowritebackup noundofile noswapfile nofixendofline viminfo=",
  ]

  /// The editor as configured, such as `vim` or `code --wait`.
  let command: String
  let variables: [String: String]

  /// True when neither VISUAL nor EDITOR names an editor, so `vi` is the fallback.
  let isFallback: Bool

  /// The editor configured in `environment`.
  init(environment: VaultEnvironment) {
    variables = environment.variables
    let configured = [variables["VISUAL"], variables["EDITOR"]].compactMap { $0 }
    let chosen = configured.first { !$0.allSatisfy(\.isWhitespace) }
    command = chosen ?? "vi"
    isFallback = chosen == nil
  }

  /// True when the command needs a shell (git's test: any space or shell metacharacter).
  var needsShell: Bool {
    command.contains { "|&;<>()$`\\\"' \t\n*?[#~=%".contains($0) }
  }

  /// The program the command starts: its first word, found on `PATH` when it has no slash.
  var program: String? {
    let word = String(command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    if word.contains("/") { return word }
    return ProgramSearch.find(word, variables)
  }

  /// True when the program is vim or nvim (also behind `vi` or a symbolic link).
  var isVim: Bool {
    guard let program else { return false }
    let resolved = URL(fileURLWithPath: program).resolvingSymlinksInPath().lastPathComponent
    let names = [URL(fileURLWithPath: program).lastPathComponent, resolved]
    return names.contains { $0.hasPrefix("vim") || $0.hasPrefix("nvim") || $0.hasPrefix("gvim") }
  }

  /// The executable and argv that edit `file`.
  ///
  /// - Throws: `InputRefused` when the editor is not found.
  func invocation(for file: String) throws -> (executable: String, argv: [String]) {
    let options = isVim ? Self.vimOptions : []
    if needsShell {
      return ("/bin/sh", ["sh", "-c", command + " \"$@\"", command] + options + [file])
    }
    guard let program else {
      throw InputRefused(
        "the editor '\(command)' was not found; set VISUAL or EDITOR")
    }
    return (program, [command] + options + [file])
  }

  /// The environment the editor runs in.
  func environment(tmpdir: String) -> [String: String] {
    var out = ChildHygiene.environment(variables)
    out["TMPDIR"] = tmpdir
    return out
  }

  /// Starts the editor on `file` with the caller's terminal and standard streams, with default
  /// signal dispositions and an empty signal mask (the caller ignores SIGINT meanwhile).
  ///
  /// - Returns: the child's process id.
  /// - Throws: `InputRefused` when it cannot be started.
  func start(file: String, tmpdir: String) throws -> pid_t {
    let (executable, arguments) = try invocation(for: file)
    do {
      return try Spawn(
        executable: executable, arguments: arguments,
        environment: environment(tmpdir: tmpdir), signals: .interactive
      ).start()
    } catch {
      throw InputRefused("cannot start the editor '\(command)': \(error.reason)")
    }
  }

}
