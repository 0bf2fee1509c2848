/// How the newest state of a format-2 vault (`vault(5)` STATE) failed to authenticate what the
/// file holds: its link, the header, the aggregates, or the rows they sum.
public enum StateDamage: Equatable, Sendable {
  /// No state row verifies: the `states` table is empty or its newest row is malformed.
  case noValidState
  /// The `aggregate` row is missing, or its sums are not of their lengths.
  case aggregateRow
  /// The newest state's MAC does not verify.
  case stateFailedAuthentication
  /// The state's summary is not that of the header and aggregate as stored.
  case headerOrAggregateNotAuthenticated
  /// The `records` rows of a bucket do not add up to its authenticated aggregate.
  case recordsNotAuthenticated
  /// The `chunks` rows do not add up to their authenticated aggregate.
  case chunksNotAuthenticated
  /// Two `records` rows have one record id or one name index.
  case recordsShareIDOrName
  /// A `chunks` row's box is longer than any the vault writes.
  case oversizedChunk
  /// A chunk row a write replaces in place is not there.
  case chunkMissing
  /// A chunk row's box is too short to end in an authentication tag.
  case chunkTooShort
}

/// A table of a format-2 vault file, as a malformed row names it.
public enum VaultTable: Equatable, Sendable {
  /// `records`: entries, revisions, tombstones, journal entries, settings, counters.
  case records
  /// `chunks`: the boxes of contents.
  case chunks
  /// `states`: the chain of state links.
  case states
}
