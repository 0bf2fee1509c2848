import VaultCore
import VaultFormat

/// `vault edit NAME`: authenticate, decrypt into a private RAM-backed folder, edit, re-encrypt.
struct EditCommand: VaultCommand {
  static let about = CommandAbout(
    "edit", "Edit an entry in your editor, leaving no plaintext on disk.",
    discussion: """
      Authenticates first (a guarded entry also needs its biometric check), so nothing typed is \
      lost to a failed PIN, then opens the entry in the editor and stores it again when the \
      editor exits successfully.
      """ + " " + Self.editorDiscussion)

  @FlagParameter(Keys.allowDiskTemp) var allowDiskTemp
  @ArgumentParameter(Keys.name) var name

  func run(_ context: Context) throws -> Int32 {
    try context.refusePINOnStandardInput("the editor inherits")
    let root = try EditFolder.root(
      context.environment, allowDisk: allowDiskTemp)
    // Authenticate before the editor opens, so nothing typed is lost to a failed PIN.
    let unlocked = try context.open(.readEntry(name, action: "edit '\(name)'"))
    guard let entry = unlocked.entry else { throw VaultError.notFound(name.value) }
    let (metadata, content) = (entry.metadata, try entry.content)
    let store = unlocked.entries
    let outcome = try EditSession.run(
      content, fileName: EditSession.fileName(for: name.value, fallback: "entry"), root: root,
      environment: context.environment)
    return try EditSession.finish(outcome) { edited in
      guard edited.count > 0 else {
        throw InputRefused("the edited content is empty; nothing was written")
      }
      do {
        try store.put(
          name, content: edited, overwrite: true, guarded: metadata.guarded,
          expectedRevision: metadata.revision, change: .edited)
      } catch VaultError.vaultChanged(let change) {
        // The key itself changed: the edit cannot be stored under the key this command holds.
        throw EditNotSaved(change: change)
      } catch VaultError.conflict(let conflict) {
        // Neither the other change nor the edit is lost: the edit goes under a new name.
        let stamp = Timestamp.utc(context.environment.clock.wallNow)
        let copy = try EntryName("\(name.value) (edited \(stamp))")
        try store.put(copy, content: edited, overwrite: false, guarded: metadata.guarded)
        throw ConflictOutcome(conflict: conflict, outcome: .editSavedAs(name: copy.value))
      }
      Output.error("Saved '\(name)'.")
    }
  }

  /// What the editor commands' help says about the plaintext's folder and the editor.
  static let editorDiscussion = """
    The plaintext goes into a private 0700 folder on a RAM-backed file system ($XDG_RUNTIME_DIR, \
    else /dev/shm; with neither, the command refuses unless --allow-disk-temp), as a 0600 file \
    opened with $VISUAL or $EDITOR (else vi). The folder is removed on every exit path: success, \
    editor failure, Ctrl-C, SIGTERM and SIGHUP; one left by a vault killed with SIGKILL is \
    removed by the next vault command. vim and nvim run without swap, backup, undo and viminfo \
    files. Unchanged content writes nothing. When the text did not end in a newline, a final \
    newline added by the editor is dropped.
    """
}

/// `vault edit` whose entry's key changed while the editor ran: the edit cannot be stored under
/// the key the command holds, and is not saved (18).
struct EditNotSaved: ReportableError {
  /// What changed.
  let change: VaultChange

  var exitCode: ExitCode { .vaultChanged }

  var message: String {
    "the vault changed while the command ran: \(FileWords.words(change)); your edit was not saved"
      + " (edit again); run it again"
  }
}
