import Foundation
import VaultCore

/// Every file generated from the command tables: completion scripts and manual pages.
///
/// Paths are relative to the package root. The files are committed, and a test regenerates them.
public enum GeneratedFiles {
  /// The command that rewrites them, run from the package root.
  public static let refreshCommand = "swift run vault __generate ."

  /// Each file's path relative to the package root, and its contents.
  public static func all() -> [(path: String, contents: String)] {
    let programs = [VaultCommands.program, BiosimCommands.program]
    var files: [(path: String, contents: String)] = []
    for program in programs {
      files.append(("completions/\(program.name).bash", BashCompletion.script(for: program)))
      files.append(("completions/_\(program.name)", ZshCompletion.script(for: program)))
      files.append(("completions/\(program.name).fish", FishCompletion.script(for: program)))
    }
    files.append(("man/vault.1", ManPage.vault()))
    files.append(("man/biosim.1", ManPage.biosim()))
    files.append(("man/vault.5", FormatManual.page()))
    return files
  }

  /// The completion script of `vault` for `shell`.
  public static func completionScript(_ shell: ShellSyntax) -> String {
    switch shell {
    case .bash: BashCompletion.script(for: VaultCommands.program)
    case .zsh: ZshCompletion.script(for: VaultCommands.program)
    case .fish: FishCompletion.script(for: VaultCommands.program)
    }
  }

  /// Writes every file under `root` (mode 0644), creating `completions/` and `man/`.
  ///
  /// - Throws: `VaultError.storage` naming the file that could not be written.
  public static func write(to root: String) throws {
    for file in all() {
      let path = root + "/" + file.path
      let folder = PrivateFiles.parentFolder(of: path)
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o755])
        try Data(file.contents.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
      } catch {
        throw VaultError.storage("cannot write \(path): \(error.localizedDescription)")
      }
    }
  }
}
