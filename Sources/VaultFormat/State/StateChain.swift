import VaultCrypto

/// One link of the vault's authenticated state chain (format 2): a generation number, the MAC of
/// the link before it, a summary of the vault's contents, and a MAC over all three.
///
/// Each write makes a new link with the next generation whose `previous` is the last link's `mac`,
/// so that a device that remembers one link can tell a later state of the same vault from a
/// rolled-back or diverging one. The first link has generation 1 and `previous` of 32 zero bytes.
public struct StateLink: Equatable, Sendable {
  /// Length in bytes of `previous`, `summary` and `mac`.
  public static let byteCount = 32
  /// The `previous` of the first link: 32 zero bytes.
  public static let genesis = [UInt8](repeating: 0, count: byteCount)

  /// The link's position, from 1.
  public var generation: Int64
  /// The `mac` of the link before, or `genesis` for the first link (32 bytes).
  public var previous: [UInt8]
  /// The `summary(headerDigest:buckets:chunks:)` of the state (32 bytes).
  public var summary: [UInt8]
  /// The `mac(key:vaultID:generation:previous:summary:)` of the other fields (32 bytes).
  public var mac: [UInt8]

  /// A link with the given fields, unchecked (as read from a file).
  public init(generation: Int64, previous: [UInt8], summary: [UInt8], mac: [UInt8]) {
    self.generation = generation
    self.previous = previous
    self.summary = summary
    self.mac = mac
  }

  /// The 32-byte digest of a state's contents: unkeyed BLAKE2b-256 (`crypto_generichash`,
  /// RFC 7693) of `"vault.state-summary.v2" || headerDigest || BLAKE2b-256(buckets) || chunks`.
  ///
  /// `headerDigest` is 32 bytes; `buckets` is the records table's 256 per-bucket aggregates,
  /// 32 bytes each in bucket order (8192 bytes); `chunks` is the chunks table's 32-byte aggregate.
  /// Traps for other lengths.
  public static func summary(headerDigest: [UInt8], buckets: [UInt8], chunks: [UInt8]) -> [UInt8] {
    precondition(headerDigest.count == byteCount, "a header digest is 32 bytes")
    precondition(buckets.count == 256 * Aggregate.byteCount, "the buckets are 256 × 32 bytes")
    precondition(chunks.count == Aggregate.byteCount, "an aggregate is 32 bytes")
    return GenericHash.hash(parts: [
      DomainLabel.stateSummary.bytes, headerDigest, GenericHash.hash(parts: [buckets]), chunks,
    ])
  }

  /// The 32-byte MAC of a link: BLAKE2b-256 (`crypto_generichash`, RFC 7693) keyed with `key` of
  /// `"vault.state.v2" || vaultID (16) || generation (8, big-endian) || previous || summary`.
  ///
  /// `key` is the master key's `.state` subkey. Traps unless `previous` and `summary` are 32
  /// bytes.
  public static func mac(
    key: SymmetricKey, vaultID: VaultID, generation: Int64, previous: [UInt8], summary: [UInt8]
  ) -> [UInt8] {
    precondition(previous.count == byteCount && summary.count == byteCount, "32-byte fields")
    let generationBytes = withUnsafeBytes(of: generation.bigEndian) { Array($0) }
    return GenericHash.keyed(
      key: key.bytes,
      parts: [DomainLabel.state.bytes, vaultID.bytes, generationBytes, previous, summary])
  }

  /// True when the fields are 32 bytes each, the generation is at least 1, a first link's
  /// `previous` is `genesis`, and `mac` is the link's MAC under `key` and `vaultID` (compared in
  /// constant time with `constantTimeEqual`).
  ///
  /// Checks the link alone: that `summary` describes the vault's contents is the caller's check.
  public func verifies(key: SymmetricKey, vaultID: VaultID) -> Bool {
    guard generation >= 1, previous.count == Self.byteCount, summary.count == Self.byteCount,
      generation > 1 || previous == Self.genesis
    else { return false }
    let expected = Self.mac(
      key: key, vaultID: vaultID, generation: generation, previous: previous, summary: summary)
    return constantTimeEqual(expected, mac)
  }

  /// The link that follows `last` (or the first link, when `last` is nil) for a state with
  /// `summary`: generation one more, `previous` the last link's `mac`, and its MAC under `key`.
  ///
  /// Traps when `last` is at generation `Int64.max`, or `summary` or `last.mac` is not 32 bytes.
  public static func next(
    after last: StateLink?, summary: [UInt8], key: SymmetricKey, vaultID: VaultID
  ) -> StateLink {
    let generation = (last?.generation ?? 0) + 1
    let previous = last?.mac ?? genesis
    return StateLink(
      generation: generation, previous: previous, summary: summary,
      mac: mac(
        key: key, vaultID: vaultID, generation: generation, previous: previous, summary: summary))
  }
}

extension StateLink {
  /// Where a stored chain stands relative to a link a device remembers.
  public enum Relation: Equatable, Sendable {
    /// The newest link is the remembered one.
    case same
    /// The remembered link is an ancestor of the newest, through links that verify.
    case descendant
    /// The newest link is of a lower generation than the remembered one: a rolled-back state.
    case older
    /// Neither: another chain at or beyond the remembered generation, a link that does not verify,
    /// or a gap in generations.
    case forked
  }

  /// How `chain` (the stored links, newest first, each one generation below the one before)
  /// relates to the `remembered` link's generation and MAC, under `key` and `vaultID`.
  ///
  /// Every link looked at must verify, and none is trusted for its position alone. With `newest` =
  /// `chain[0]`: `older` when `newest` verifies and its generation is below the remembered one;
  /// `same` when it verifies and has the remembered generation and MAC; `descendant` when walking
  /// back from it, each next link verifying, being exactly one generation lower, and having the
  /// `mac` that the link above names as its `previous`, reaches a link with the remembered
  /// generation and MAC; `forked` otherwise, which includes an empty chain, a newest link that does
  /// not verify, a remembered generation older than the chain's oldest stored link, and a break in
  /// the walk. MACs are compared in constant time. The summary is not checked against the
  /// contents: that is the caller's job.
  public static func relation(
    of chain: [StateLink], to remembered: (generation: Int64, mac: [UInt8]), key: SymmetricKey,
    vaultID: VaultID
  ) -> Relation {
    relation(of: chain, to: remembered, keys: { _ in key }, vaultID: vaultID)
  }

  /// `relation` where each link's MAC is checked under the state key of its own generation
  /// (`keys`; nil when none opens): across master-key rotations.
  public static func relation(
    of chain: [StateLink], to remembered: (generation: Int64, mac: [UInt8]),
    keys: (Int64) -> SymmetricKey?, vaultID: VaultID
  ) -> Relation {
    func verifies(_ link: StateLink) -> Bool {
      keys(link.generation).map { link.verifies(key: $0, vaultID: vaultID) } ?? false
    }
    guard let newest = chain.first, verifies(newest) else {
      return .forked
    }
    if newest.generation < remembered.generation { return .older }
    var link = newest
    for older in chain.dropFirst() {
      if link.generation == remembered.generation { break }
      guard verifies(older), older.generation == link.generation - 1,
        constantTimeEqual(link.previous, older.mac)
      else { return .forked }
      link = older
    }
    guard link.generation == remembered.generation, constantTimeEqual(link.mac, remembered.mac)
    else { return .forked }
    return link.generation == newest.generation ? .same : .descendant
  }
}
