import VaultCore
import VaultFormat

/// `vault history`.
struct HistoryCommand: VaultCommand {
  static let about = CommandAbout(
    "history", "List the kept versions of an entry, newest first.",
    discussion: """
      Every change of an entry (add --force, edit, generate --force, mv, restore, rm) keeps \
      the version it replaces, encrypted like the entry. Prints one line per version: its \
      revision, when it was made, its size, the command that made it and the name it had; the \
      current version is marked 'current', a removal 'removed'. A version is kept while it is \
      among the newest history_keep of its entry or younger than history_days (see 'vault \
      settings'). Read one with 'vault get NAME --revision R'.
      """)

  @FlagParameter(Keys.json) var json
  @ArgumentParameter(Keys.name) var name

  func run(_ context: Context) throws -> Int32 {
    let versions = try context.open(.use(reason: "read the history of '\(name)'")).entries
      .history(name)
    if json {
      let rows = versions.map { version in
        JSONOutput.object([
          ("revision", .number(Int(version.revision))), ("time", .string(version.time)),
          ("name", .string(version.name)), ("size", version.length.map { .number($0) } ?? .null),
          ("command", .string(HistoryChange.command(version.change))),
          ("state", .string(version.state.rawValue)), ("guarded", .bool(version.guarded)),
        ])
      }
      Output.print(JSONOutput.array(rows).rendered + "\n")
      return ExitCode.success.rawValue
    }
    let lines = versions.map { version -> [String] in
      [
        String(version.revision), version.time,
        version.length.map { "\($0) byte\($0 == 1 ? "" : "s")" } ?? "-",
        HistoryChange.command(version.change), Output.printable(version.name),
        version.state == .kept ? "" : version.state.rawValue,
      ]
    }
    let widths = (0..<5).map { column in lines.map { $0[column].count }.max() ?? 0 }
    for line in lines {
      var text = ""
      for column in 0..<5 {
        let cell = line[column]
        // Numbers right-aligned, text left-aligned.
        let pad = String(repeating: " ", count: widths[column] - cell.count)
        text += column == 0 || column == 2 ? pad + cell : cell + pad
        text += "  "
      }
      text += line[5]
      while text.hasSuffix(" ") { text.removeLast() }
      Output.print(text + "\n")
    }
    return ExitCode.success.rawValue
  }
}
