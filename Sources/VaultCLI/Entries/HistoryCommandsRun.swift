import VaultCore
import VaultFormat

/// `history`, `restore`, `purge`, `settings`.
enum HistoryCommandsRun {
  /// The command that made a version, from its recorded change.
  static func command(_ change: String?) -> String {
    switch change.flatMap(EntryChange.init(rawValue:)) {
    case .added: "add"
    case .replaced: "add --force"
    case .edited: "edit"
    case .oneTimeCode: "otp --set"
    case .generated: "generate"
    case .renamed: "mv"
    case .restored: "restore"
    case .imported: "import"
    case .fieldSet: "set"
    case .fieldUnset: "unset"
    case nil: change == "remove" ? "rm" : change == "purge" ? "purge" : "-"
    }
  }

  static func history(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let versions = try context.open(.use(reason: "read the history of '\(name)'")).entries
      .history(name)
    if context.flag(Keys.json) {
      let rows = versions.map { version in
        JSONOutput.object([
          ("revision", .number(Int(version.revision))), ("time", .string(version.time)),
          ("name", .string(version.name)), ("size", version.length.map { .number($0) } ?? .null),
          ("command", .string(command(version.change))),
          ("state", .string(version.state.rawValue)), ("guarded", .bool(version.guarded)),
        ])
      }
      Output.print(JSONOutput.array(rows).rendered + "\n")
      return
    }
    let lines = versions.map { version -> [String] in
      [
        String(version.revision), version.time,
        version.length.map { "\($0) byte\($0 == 1 ? "" : "s")" } ?? "-",
        command(version.change), Output.printable(version.name),
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
  }

  static func restore(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let wanted = try context.value(Keys.restoreRevision).map(Int64.init)
    let (restored, revision) = try context.open(.use(reason: "restore '\(name)'")).entries
      .restore(name, revision: wanted)
    Output.error(
      "Restored revision \(restored) of '\(Output.printable(name.value))' (now revision"
        + " \(revision)).")
  }

  static func purge(_ context: Context) throws {
    let name = try context.argumentIfGiven(Keys.purgeName)
    let everyHistory = context.flag(Keys.purgeHistory)
    guard (name == nil) != (!everyHistory) else {
      throw UsageError(
        message: everyHistory
          ? "give either NAME or --history, not both" : "give NAME or --history",
        path: context.invocation.path)
    }
    let store = try context.open(
      .use(reason: name.map { "purge '\($0)'" } ?? "purge every kept revision")
    ).entries
    let purged = try name.map { try store.purge($0) } ?? store.purgeHistory()
    let what =
      name.map { "'\(Output.printable($0.value))' and " } ?? ""
    Output.error(
      "Purged \(what)\(purged.revisions) kept revision\(purged.revisions == 1 ? "" : "s")"
        + " (\(purged.chunks) content chunk\(purged.chunks == 1 ? "" : "s"));"
        + (purged.compacted
          ? " the file went from \(purged.sizeBefore) to \(purged.sizeAfter) bytes."
          : " another command held the file, so it was not rewritten yet: run 'vault purge"
            + " --history' again to shrink it.")
        + " Backups and other copies still hold what they held.")
  }

  static func settings(_ context: Context) throws {
    let setting = try context.argumentIfGiven(Keys.setting)
    let text = try context.argumentIfGiven(Keys.settingValue)
    var value: Int64?
    if let text {
      guard let setting else { preconditionFailure("VALUE follows KEY") }
      guard let number = Int64(text), setting.key.range.contains(number) else {
        throw VaultError.invalidInput(
          "\(setting.rawValue) is a whole number from \(setting.key.range.lowerBound) to"
            + " \(setting.key.range.upperBound), not '\(Output.printable(text))'")
      }
      value = number
    }
    // Widening the reuse window is a change of policy: the PIN and a fresh match in this
    // command, never a session or a success by reuse.
    let purpose: AccessPurpose =
      setting == .biometricReuse && value != nil
      ? .administer(reason: "change the reuse window of biometric unlock")
      : .use(reason: "read or change the vault's settings")
    let store = try context.open(purpose).entries
    if let setting, let value {
      let (_, pruned) = try store.set(setting.key, to: value)
      Output.error(
        "Set \(setting.rawValue) to \(value)"
          + (pruned > 0 ? "; dropped \(pruned) kept revision\(pruned == 1 ? "" : "s")." : "."))
      return
    }
    let settings = try store.settings()
    if let setting {
      Output.print("\(settings.value(setting.key))\n")
      return
    }
    for name in SettingName.allCases {
      Output.print("\(name.rawValue) \(settings.value(name.key))\n")
    }
  }
}
