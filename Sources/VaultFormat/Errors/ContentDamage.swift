/// A check an entry's content failed as its chunks were read (`vault(5)` RECORDS, Streamed
/// contents).
public enum ContentDamage: Equatable, Sendable {
  /// The entry says the content is streamed, and names no content id.
  case streamWithoutContentID
  /// The content has more or fewer chunk rows than its length makes.
  case missingOrExtraChunks
  /// A chunk row is missing, or its box is longer than any the vault writes.
  case missingOrOversizedChunk
  /// A streamed content's first chunk has no stream header.
  case noStreamHeader
  /// A stream's final tag is not on its last chunk.
  case cutShortOrRunsPastEnd
  /// A chunk's plaintext is not the length its place makes.
  case wrongChunkLength
  /// The zero padding after the content is not all zero.
  case nonzeroPadding
}
