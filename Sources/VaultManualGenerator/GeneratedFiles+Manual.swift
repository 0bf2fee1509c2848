import Foundation
import VaultCLI
import VaultCore
import VaultFormat

extension GeneratedFiles {
  /// A manual page to make: `NAME.SECTION` from its source `man/src/NAME.SECTION.in`.
  struct Page: Sendable {
    /// The page's name, such as `vault`.
    let name: String
    /// Its manual section: 1 for commands, 5 for file formats.
    let section: Int
    /// The version its title line gives.
    let version: String
    /// The values of its placeholders.
    let values: @Sendable () -> [String: Placeholder]
  }

  /// Every manual page, in the order `all` lists them.
  static let pages = [
    Page(
      name: "vault", section: 1, version: VaultCommands.program.version,
      values: PlaceholderValues.vaultCommand),
    Page(
      name: "biosim", section: 1, version: BiosimCommands.program.version,
      values: PlaceholderValues.biosimCommand),
    Page(
      name: "vault", section: 5, version: VaultCommands.program.version,
      values: PlaceholderValues.format),
  ]

  /// Every generated file, completion scripts then manual pages: its path relative to the package
  /// root, and its contents.
  ///
  /// The pages are read from their sources under `packageRoot`.
  ///
  /// - Throws: `ManualSourceError` naming the source, and the line, that cannot be made into a
  ///   page: a source missing or malformed, a placeholder unknown, or a value never used.
  public static func all(packageRoot: String) throws -> [(path: String, contents: String)] {
    var files = completions()
    for page in pages {
      let source = "man/src/\(page.name).\(page.section).in"
      guard let data = FileManager.default.contents(atPath: packageRoot + "/" + source) else {
        throw ManualSourceError.unreadable(path: source)
      }
      let roff = try manualPage(
        page.name, section: page.section, version: page.version,
        source: (source, String(decoding: data, as: UTF8.self)), values: page.values())
      files.append(("man/\(page.name).\(page.section)", roff))
    }
    return files
  }

  /// The roff of the page `name`(`section`), made from `source` (its path and its text) with its
  /// placeholders filled from `values`.
  ///
  /// - Throws: `ManualSourceError` when the source does not read, or its placeholders and `values`
  ///   do not match.
  static func manualPage(
    _ name: String, section: Int, version: String, source: (path: String, text: String),
    values: [String: Placeholder]
  ) throws -> String {
    let sections = try ManualSource(path: source.path, text: source.text).resolve(values)
    return ManualPage(
      name: name, section: section, source: "\(name) \(version)",
      notice: "Generated from \(source.path) by '\(refreshCommand)'; do not edit.",
      sections: sections
    ).roff
  }

  /// Writes every file under `packageRoot` (mode 0644), creating `completions/` and `man/`.
  ///
  /// Nothing is written unless every page can be made.
  ///
  /// - Throws: `ManualSourceError` as `all(packageRoot:)` does, and `VaultError.storage` naming
  ///   the file that could not be written.
  public static func write(packageRoot: String) throws {
    for file in try all(packageRoot: packageRoot) {
      let path = packageRoot + "/" + file.path
      let folder = PrivateFiles.parentFolder(of: path)
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o755])
        try Data(file.contents.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
      } catch {
        throw ManualSourceError.unwritable(path: path, reason: error.localizedDescription)
      }
    }
  }
}
