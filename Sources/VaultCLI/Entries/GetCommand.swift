import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault get`.
struct GetCommand: VaultCommand {
  static let about = CommandAbout(
    "get", aliases: ["show"], "Write an entry's content to standard output, byte for byte.",
    discussion: """
      To a pipe or file, exactly the bytes selected; on a terminal a newline follows \
      when they do not end in one. --field, --line, --fields and --json select a part \
      of the entry's text (see FIELDS in vault(1)); --clip copies the first line (the \
      password), or what --field or --line selects, or with --all the whole entry. With \
      --revision, reads a kept earlier version instead (see 'vault history'); reading \
      any version of a guarded entry needs its fresh check.
      """)

  @OptionParameter(Keys.field) var field
  @OptionParameter(Keys.line) var line
  @FlagParameter(Keys.listFields) var listFields
  @FlagParameter(Keys.entryJSON) var entryJSON
  @OptionParameter(Keys.revision) var revision
  @FlagParameter(Keys.clip) var clip
  @OptionParameter(Keys.clipTime) var clipTime
  @FlagParameter(Keys.clipAll) var clipAll
  @ArgumentParameter(Keys.name) var name

  /// `--clip-time` needs `--clip`; the selections are checked against each other.
  ///
  /// - Throws: `UsageError` (exit 64).
  func validate(path: [String]) throws {
    if clipTime != nil && !clip {
      throw UsageError(message: "--clip-time needs --clip", path: path)
    }
    _ = try selection(path: path)
  }

  func run(_ context: Context) throws -> Int32 {
    let selection = try selection(path: context.path)
    if clip {
      // Checked before unlocking, so a missing clipboard never costs a PIN entry.
      _ = try Clipboard.tool(context.environment.variables)
    }
    let revision = self.revision.map(Int64.init)
    let unlocked = try context.open(.readEntry(name, revision: revision))
    guard let entry = unlocked.entry else { throw VaultError.notFound(name.value) }
    if entry.metadata.isLarge && selection == .whole && !clip {
      try Self.streamEntry(unlocked)
      return ExitCode.success.rawValue
    }
    let content = try entry.content
    let value: SecureBytes
    do {
      value = try selection.select(from: content, name: name.value)
    } catch VaultError.notText where clip && selection == .field(EntryFields.passwordKey) {
      throw InputRefused(
        "the content is not UTF-8 text (invalid UTF-8 or a NUL byte), so it has no first line to"
          + " copy; copy it whole with --all")
    }
    if clip {
      guard value.count > 0 else {
        throw InputRefused(
          "\(selection.clipped(name.value)) is empty; nothing was copied")
      }
      try Clipboard.copy(
        value, name: name, what: selection.clipped(name.value), seconds: clipTime, context: context)
      return ExitCode.success.rawValue
    }
    Output.writeValue(value)
    return ExitCode.success.rawValue
  }

  /// Writes a large entry to standard output piece by piece (with the terminal newline rule of
  /// `Output.writeValue`).
  private static func streamEntry(_ unlocked: UnlockedVault) throws {
    var last: UInt8?
    try unlocked.streamEntry { piece in
      Output.write(piece)
      last = piece.last
    }
    if isatty(1) == 1, last != 0x0A { Output.print("\n") }
  }

  /// The selection the options ask for; `--clip` alone selects the password.
  ///
  /// - Throws: `UsageError` when two selections are combined, or `--all` comes without `--clip`
  ///   or with another selection.
  private func selection(path: [String]) throws -> EntrySelection {
    var chosen: [(String, EntrySelection)] = []
    if let key = field { chosen.append(("--field", .field(key.text))) }
    if let line { chosen.append(("--line", .line(line))) }
    if listFields { chosen.append(("--fields", .keys)) }
    if entryJSON { chosen.append(("--json", .json)) }
    if clipAll { chosen.append(("--all", .whole)) }
    if chosen.count > 1 {
      throw UsageError(
        message: "\(chosen[0].0) and \(chosen[1].0) cannot be combined", path: path)
    }
    if clipAll && !clip {
      throw UsageError(
        message: "--all needs --clip (without it the whole entry is printed)", path: path)
    }
    if clip, let (word, selection) = chosen.first, selection == .keys || selection == .json {
      throw UsageError(message: "--clip copies one value; \(word) prints a listing", path: path)
    }
    return chosen.first?.1 ?? (clip ? .field(EntryFields.passwordKey) : .whole)
  }
}
