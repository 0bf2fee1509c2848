import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal

/// `vault edit`.
struct JournalEditCommand: VaultCommand {
  static let about = CommandAbout(
    "edit", "Edit a journal entry in your editor; its ID and time stay.",
    discussion: EditCommand.editorDiscussion)

  @FlagParameter(Keys.allowDiskTemp) var allowDiskTemp
  @ArgumentParameter(Keys.journalID) var journalID

  func run(_ context: Context) throws -> Int32 {
    try context.refusePINOnStandardInput("the editor inherits")
    let prefix = try JournalStore.normalizedIDPrefix(
      journalID, datesAllowed: false)
    let root = try EditFolder.root(
      context.environment, allowDisk: allowDiskTemp)
    let unlocked = try context.open(.use(reason: "edit a journal entry"))
    let vault = unlocked.vault
    let store = try unlocked.journal()
    // An entry written without the key is folded into the state before it is edited.
    try store.fold()
    let entry = try store.entry(idPrefix: prefix)
    let short = String(entry.hexID.prefix(JournalStore.shortIDLength))
    let outcome = try EditSession.run(
      entry.text, fileName: "journal-\(short).txt", root: root, environment: context.environment)
    return try EditSession.finish(outcome) { edited in
      guard !JournalWarnings.isBlank(edited) else {
        throw InputRefused("the edited entry is empty; nothing was written")
      }
      do {
        try store.replace(entry, text: edited)
      } catch VaultError.conflict(let conflict) {
        let id = try JournalStore.append(edited, to: vault, stamp: entry.stamp)
        throw ConflictOutcome(
          conflict: conflict,
          outcome: .editSavedAsJournalEntry(id: String(id.hex.prefix(JournalStore.shortIDLength))))
      }
      Output.error("Saved journal entry \(short).")
    }
  }
}
