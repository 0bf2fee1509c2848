import CPlatform
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

// The signal handler below removes the edit folder without touching Swift objects: the path is a
// C string and the editor's process id a plain integer, both written only by the main thread
// before the handler can run.
nonisolated(unsafe) private var cleanupPath: UnsafeMutablePointer<CChar>?
nonisolated(unsafe) private var editorPID: pid_t = 0

/// Stops the editor, removes the edit folder and exits 128 + signal.
///
/// The signal is forwarded to the editor, then SIGKILL after two seconds. Only async-signal-safe
/// calls (see `CPlatform/shim.h`).
private func removeAndExit(_ signal: Int32) {
  if editorPID > 0 { vault_stop_child(editorPID, signal) }
  if let cleanupPath { _ = vault_remove_tree(cleanupPath) }
  _exit(128 + signal)
}

/// One round through the user's editor on a private plaintext copy, with the folder removed on
/// every exit path: normal return, thrown error, editor failure, SIGINT, SIGTERM, SIGHUP and
/// SIGQUIT. (SIGKILL cannot be caught; `EditFolder.removeStale` cleans up after it.)
///
/// While the editor runs, SIGINT and SIGQUIT are ignored here, as git and `system(3)` do: Ctrl-C
/// belongs to the editor (vim uses it), and when the editor dies of it, this process removes the
/// folder and exits 130.
enum EditSession {
  /// How the round ended.
  enum Outcome {
    /// The file was saved with different content.
    case changed(SecureBytes)
    /// The content is the same as before.
    case unchanged
    /// The editor was killed by SIGINT, SIGQUIT, SIGTERM or SIGHUP: exit with this code.
    case interrupted(Int32)
  }

  static let cleanupSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Reports an outcome the same way for every kind of edit and returns the exit code: an
  /// interrupted editor exits 128 + signal, unchanged content writes nothing, changed content is
  /// handed to `save`.
  static func finish(_ outcome: Outcome, save: (SecureBytes) throws -> Void) rethrows -> Int32 {
    switch outcome {
    case .interrupted(let code):
      Output.error("vault: error: the editor was interrupted; nothing was written")
      return code
    case .unchanged:
      Output.error("No changes; nothing was written.")
    case .changed(let edited):
      try save(edited)
    }
    return 0
  }

  /// Writes `content` to `fileName` in a new folder under `root`, runs the editor on it and reads
  /// it back.
  ///
  /// When `content` does not end in a newline, one newline the editor adds at the end is dropped,
  /// so a password does not change by being opened and saved.
  ///
  /// - Throws: `Cancelled` when the editor fails or removes the file, `CommandFailed` for
  ///   I/O failures, `InputRefused` when there is no editor.
  static func run(
    _ content: SecureBytes, fileName: String, root: String, environment: VaultEnvironment
  ) throws -> Outcome {
    let editor = Editor(environment: environment)
    if editor.isFallback && (isatty(0) == 0 || isatty(1) == 0) {
      throw NoTerminal(
        message:
          "no terminal for the editor (vi)", hint: "run it on a terminal, or set VISUAL or EDITOR")
    }
    let folder = try EditFolder.create(in: root, environment: environment)
    let previous = arm(folder.path)
    defer {
      folder.remove()
      disarm(previous)
    }
    let file = try folder.write(content, name: fileName)
    let status = try wait(for: editor, file: file, tmpdir: folder.path)
    if status.signal != 0 {
      if [SIGINT, SIGQUIT, SIGTERM, SIGHUP].contains(status.signal) {
        return .interrupted(128 + status.signal)
      }
      throw Cancelled(
        why:
          "the editor was killed by signal \(status.signal); nothing was written")
    }
    if editor.needsShell && (status.code == 126 || status.code == 127) {
      // The shell could not find or run the editor's program.
      throw InputRefused(
        "the editor '\(editor.command)' could not be started (the shell said status"
          + " \(status.code)); set VISUAL or EDITOR")
    }
    guard status.code == 0 else {
      throw Cancelled(
        why:
          "the editor exited with status \(status.code); nothing was written")
    }
    guard let edited = try folder.read(file) else {
      throw Cancelled(why: "the editor removed the file; nothing was written")
    }
    let result = dropAddedNewline(edited, original: content)
    return result == content ? .unchanged : .changed(result)
  }

  /// Runs the editor with SIGINT and SIGQUIT ignored and waits for it.
  private static func wait(for editor: Editor, file: String, tmpdir: String) throws
    -> (code: Int32, signal: Int32)
  {
    let saved = SavedSignals([SIGINT, SIGQUIT])
    signal(SIGINT, SIG_IGN)
    signal(SIGQUIT, SIG_IGN)
    defer { saved.restore() }
    editorPID = try editor.start(file: file, tmpdir: tmpdir)
    defer { editorPID = 0 }
    var status: Int32 = 0
    while waitpid(editorPID, &status, 0) < 0 {
      guard errno == EINTR else { throw CommandFailed("lost track of the editor") }
    }
    let killer = status & 0x7f
    return killer == 0 ? ((status >> 8) & 0xff, 0) : (0, killer)
  }

  /// Installs the cleanup handler for `path`; returns the handlers it replaced.
  private static func arm(_ path: String) -> SavedSignals {
    cleanupPath = strdup(path)
    let saved = SavedSignals(cleanupSignals)
    for number in cleanupSignals { signal(number, removeAndExit) }
    return saved
  }

  /// Restores the previous handlers, then forgets the path.
  private static func disarm(_ previous: SavedSignals) {
    previous.restore()
    let path = cleanupPath
    cleanupPath = nil
    free(path)
  }

  /// `edited` without a final line break (LF or CRLF) that `original` did not have.
  static func dropAddedNewline(_ edited: SecureBytes, original: SecureBytes) -> SecureBytes {
    func byte(_ bytes: SecureBytes, fromEnd offset: Int) -> UInt8? {
      bytes.count > offset ? bytes[bytes.count - 1 - offset] : nil
    }
    guard original.count > 0, byte(original, fromEnd: 0) != 10, byte(edited, fromEnd: 0) == 10
    else {
      return edited
    }
    let added = byte(edited, fromEnd: 1) == 13 && byte(original, fromEnd: 0) != 13 ? 2 : 1
    return edited.prefix(edited.count - added)
  }

  /// A safe file name for the editor from an entry name's last segment (keeping its extension for
  /// syntax highlighting), or `fallback`.
  static func fileName(for name: String, fallback: String) -> String {
    let last = name.split(separator: "/").last.map(String.init) ?? ""
    let safe = String(
      last.unicodeScalars.filter {
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
            || "._-".unicodeScalars.contains($0))
      }.prefix(64))
    return safe.isEmpty || safe.hasPrefix(".") || safe.hasPrefix("-") ? fallback : safe
  }
}
