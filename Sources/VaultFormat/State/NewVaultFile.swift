import FoundationEssentials
import VaultCrypto

extension Vault {
  /// Makes a new vault file at `path`, the one place a vault file is made (`vault init` and
  /// `vault sync clone`): in a private folder, under a temporary name linked into place only
  /// when complete (`createExclusively`), with format 2's pragmas and schema, the header row,
  /// and in the same transaction the first state, holding what `fill` writes.
  ///
  /// - Parameters:
  ///   - header: the header's body and its MAC under `masterKey`.
  ///   - fill: writes the file's first records and chunks (nothing for a new vault).
  /// - Returns: the first state link.
  /// - Throws: `VaultError.vaultExists` when `path` exists; `.unsafePermissions` for a folder
  ///   others could change; `.storage`; what `fill` throws (nothing is left then).
  package static func makeFile(
    at path: String, vaultID: VaultID, masterKey: SymmetricKey,
    header: (body: [UInt8], mac: [UInt8]), fill: (StateWrite) throws -> Void = { _ in }
  ) throws -> StateLink {
    if FileManager.default.fileExists(atPath: path) { throw VaultError.vaultExists(path) }
    try prepareFolder(of: path)
    var first: StateLink?
    try createExclusively(path) { temporary in
      let db = try SQLiteDatabase(path: temporary, create: true)
      try db.execute(
        """
        PRAGMA page_size = \(pageSize);
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(schemaVersion);
        PRAGMA synchronous = FULL;
        PRAGMA secure_delete = ON;
        """)
      try db.transaction {
        try db.execute(Schema.v2)
        try db.query(
          "INSERT INTO header (id, body, mac) VALUES (1, ?, ?)",
          [.blob(header.body), .blob(header.mac)])
        let write = StateWrite(db: db, vaultID: vaultID, masterKey: masterKey, base: nil)
        write.setHeaderBody(header.body)
        try fill(write)
        first = try write.finish(masterKey: masterKey)
      }
    }
    guard let first else { throw VaultError.storage(.newFileWithoutState) }
    return first
  }

  /// Makes the folder of a new vault file private (creating it) and checks no other user can
  /// change it: `makeFile` does, and `vault init` first, before the PIN's Argon2id.
  ///
  /// - Throws: `.unsafePermissions`, `.storage`.
  package static func prepareFolder(of path: String) throws {
    let folder = PrivateFiles.parentFolder(of: path)
    try PrivateFiles.ensureDirectory(folder)
    try FileSafety.checkVaultFolder(folder)
  }
}
