/// What the vault's tables hold that no record of this version accounts for.
///
/// Thrown as `VaultError.integrity(.tables(…))` by the whole-vault checks (`vault check`, a
/// rotation): the tables are those of `vault(5)` RECORDS and STATE.
public enum TableDamage: Equatable, Sendable {
  /// SQLite's `integrity_check` found damage: its findings, as SQLite words them (none when
  /// it gave no answer).
  case structure(findings: [String])
  /// `count` records of a kind this version does not write.
  case unwrittenKinds(count: Int64)
  /// The record (its id in hex) opened, and its body is malformed.
  case malformedRecord(id: String)
  /// Content chunks belong to no entry or revision.
  case chunksOfNoVersion
  /// `count` rows of the records table are no record that opened.
  case unaccountedRows(count: Int64)
}
