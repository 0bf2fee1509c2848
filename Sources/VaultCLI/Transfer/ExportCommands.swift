import VaultCrypto
import VaultFormat

/// The table entry of `export`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let exportEntries = CommandSpec(
    "export", "Write the entries (and the journal) in another format, to leave or to move.",
    discussion: """
      --to vault writes every entry's current version, with its guard and its times (an \
      import makes its versions at the time of the import), and the \
      journal, encrypted under a passphrase asked twice on the terminal (Argon2id, --kdf), to \
      --output PATH or to standard output when it is not a terminal; read it back with \
      'vault import --from vault', or check it with --verify PATH. The other formats (jsonl, \
      csv, bitwarden-json, keepass-xml) hold every secret in the clear: they need \
      --plaintext, and go to a new file of mode 0600 (--output PATH; an existing one only \
      with --force) or to a pipe, never to a terminal or a file on standard output. PREFIX \
      exports the names under it (the journal is left out then). Guarded entries need one \
      fresh biometric match for the whole export (the PIN in a PIN-only vault) when the key \
      comes from a session or the agent; with the PIN, its own match is that one. A refused \
      or cancelled match writes nothing; --skip-guarded leaves them out instead, named, and \
      exits 5. See EXPORT in vault(1) for each format.
      """,
    options: [
      Keys.exportFormat.spec, Keys.exportOutput.spec, Keys.exportForce.spec,
      Keys.plaintext.spec, Keys.exportKDF.spec, Keys.exportSkipGuarded.spec,
      Keys.exportVerify.spec,
    ],
    arguments: [Keys.exportPrefix.spec], run: ExportCommandRun.run)
}
