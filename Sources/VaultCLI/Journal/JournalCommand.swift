import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal

/// Writes a new entry from standard input when it is not a terminal, else from the editor.
///
/// Needs neither the PIN nor the sensor: the entry is sealed to the journal public key.
struct JournalCommand: VaultCommand {
  static let about = CommandAbout(
    "journal", "Write a journal entry without unlocking; list, show or edit entries.",
    discussion: """
      Run alone, writes a new entry stamped with the local time (ISO 8601 with the UTC offset): \
      from standard input when it is not a terminal, otherwise from the editor. Text is never \
      taken from the command line. Writing needs neither the PIN nor the sensor: the entry is \
      sealed to the vault's journal public key (crypto_box_seal), and only the master key opens \
      it again. An empty editor buffer writes nothing. Entries are shown by the first 8 hex \
      digits of their ID; any unique prefix selects one. Dates are the local days the entries \
      were written on; today, yesterday and Nd count calendar days in the local time zone (TZ).
      """)

  static let subcommands: [any VaultCommand.Type] = [
    JournalListCommand.self, JournalTagsCommand.self, JournalShowCommand.self,
    JournalEditCommand.self,
  ]

  @FlagParameter(Keys.allowDiskTemp) var allowDiskTemp

  func run(_ context: Context) throws -> Int32 {
    let vault = try context.openVault()
    let stamp = JournalStamp.local(context.environment.clock.wallNow)
    let text: SecureBytes
    if isatty(0) == 0 {
      text = try LineReader.readAll(
        fd: 0, atMost: JournalStore.maximumByteCount, what: "the text on standard input")
      guard text.count > 0 else {
        throw InputRefused("standard input is empty; nothing was written")
      }
    } else {
      try context.refusePINOnStandardInput("the editor inherits")
      let root = try EditFolder.root(
        context.environment, allowDisk: allowDiskTemp)
      let outcome = try EditSession.run(
        SecureBytes(count: 0), fileName: "journal.txt", root: root,
        environment: context.environment)
      switch outcome {
      case .interrupted(let code):
        Output.error("vault: error: the editor was interrupted; nothing was written")
        return code
      case .changed(let edited) where !JournalWarnings.isBlank(edited):
        text = edited
      case .changed, .unchanged:
        Output.error("The entry is empty; nothing was written.")
        return 0
      }
    }
    let id = try JournalStore.append(text, to: vault, stamp: stamp)
    Output.error(
      "Wrote journal entry \(id.hex.prefix(JournalStore.shortIDLength)) at \(stamp).")
    return 0
  }
}
