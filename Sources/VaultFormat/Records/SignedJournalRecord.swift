import VaultCrypto

/// The plaintext of a format-2 journal entry, sealed with `crypto_box_seal`: the entry bound to
/// its vault, its row, its writer and its time, padded, and signed by the writer with Ed25519.
///
/// Layout (integers big-endian):
///
///     "vault.journal.v2"   16 bytes, ASCII
///     vault id             16 bytes
///     entry id             16 bytes, equal to the row's `entry_id`
///     writer id            16 bytes, the writing device's id
///     sequence             8 bytes, the writer's sequence number, from 1
///     revision             8 bytes, 1 when written, one more at each edit
///     stamp length         1 byte
///     stamp                ASCII, `YYYY-MM-DDTHH:MM:SS±HH:MM`
///     text length          4 bytes
///     text                 exactly as written
///     padding              zero bytes: text and padding are `Padding.paddedLength(text length)`
///     signature            64 bytes, the writer's Ed25519 signature of every byte before it
///
/// Anyone with the journal public key can seal a box, so the box alone does not say who wrote
/// it; the signature does. The padding hides the text's exact length from the box's size.
public struct SignedJournalRecord: Sendable {
  /// Largest entry text in bytes (16 MiB).
  public static let maximumTextByteCount = 16 * 1024 * 1024

  /// The record's first 16 bytes, `DomainLabel.journalSigned`.
  public static let magic = DomainLabel.journalSigned.bytes
  /// Length of the entry id and of the writer id (16).
  public static let idByteCount = 16
  /// Bytes before the stamp: magic, three ids, sequence, revision and the stamp's length (81).
  static let fixedHeadCount = magic.count + VaultID.byteCount + 2 * idByteCount + 8 + 8 + 1

  /// The vault the entry belongs to.
  public let vaultID: VaultID
  /// The entry's 16-byte id, equal to its row's `entry_id`.
  public let entryID: [UInt8]
  /// The 16-byte id of the device that wrote the entry.
  public let writerID: [UInt8]
  /// The writer's sequence number, from 1.
  public let sequence: UInt64
  /// 1 when written, one more at each edit.
  public let revision: UInt64
  /// When the entry was written, local time with its offset.
  public let stamp: JournalStamp
  /// The text exactly as written, in guarded memory.
  public let text: SecureBytes

  /// A record to encode.
  ///
  /// - Throws: `VaultError.invalidInput` when an id is not 16 bytes, `sequence` or `revision` is
  ///   0, or the text is longer than a 4-byte length can say.
  public init(
    vaultID: VaultID, entryID: [UInt8], writerID: [UInt8], sequence: UInt64, revision: UInt64,
    stamp: JournalStamp, text: SecureBytes
  ) throws {
    guard entryID.count == Self.idByteCount, writerID.count == Self.idByteCount else {
      throw VaultError.invalidInput(.journalRecord(.idsNotSixteenBytes))
    }
    guard sequence >= 1, revision >= 1 else {
      throw VaultError.invalidInput(.journalRecord(.zeroSequenceOrRevision))
    }
    guard text.count <= Int(UInt32.max) else {
      throw VaultError.invalidInput(.journalRecord(.textTooLong))
    }
    self.init(checked: vaultID, entryID, writerID, sequence, revision, stamp, text)
  }

  private init(
    checked vaultID: VaultID, _ entryID: [UInt8], _ writerID: [UInt8], _ sequence: UInt64,
    _ revision: UInt64, _ stamp: JournalStamp, _ text: SecureBytes
  ) {
    self.vaultID = vaultID
    self.entryID = entryID
    self.writerID = writerID
    self.sequence = sequence
    self.revision = revision
    self.stamp = stamp
    self.text = text
  }

  /// The whole record, padding and signature included, in guarded memory: `174 +
  /// Padding.paddedLength(text.count)` bytes for a 25-byte stamp.
  ///
  /// The signature is `crypto_sign_detached` with `key` over every byte before it.
  public func encode(signingWith key: SigningKeyPair) -> SecureBytes {
    let stampBytes = Array(stamp.description.utf8)
    let head =
      Self.magic + vaultID.bytes + entryID + writerID + Self.bigEndian(sequence)
      + Self.bigEndian(revision) + [UInt8(stampBytes.count)] + stampBytes
      + Self.bigEndian(UInt32(text.count))
    let signedCount = head.count + Padding.paddedLength(text.count)
    let out = SecureBytes(count: signedCount + Signing.signatureByteCount)
    out.withMutableBytes { bytes in
      bytes.copyBytes(from: head)
      text.withBytes {
        UnsafeMutableRawBufferPointer(rebasing: bytes[head.count...]).copyMemory(from: $0)
      }
      let signature = key.sign(UnsafeRawBufferPointer(rebasing: bytes[..<signedCount]))
      UnsafeMutableRawBufferPointer(rebasing: bytes[signedCount...]).copyBytes(from: signature)
    }
    return out
  }

  /// The fields of an opened record, its signature and the number of bytes that signature
  /// covers, after checking the layout and what the record is bound to.
  ///
  /// The signature is not checked here: look up the writer's public key by `record.writerID` and
  /// pass it to `verify(_:signature:signedCount:publicKey:)`, or use
  /// `decodeVerified(_:vaultID:entryID:writerKeys:)`.
  ///
  /// - Throws: `VaultError.integrity` when the record does not start with the magic, names
  ///   another vault or entry, has a sequence or revision of 0, a malformed stamp, a length that
  ///   is not exactly the padded text's and the signature's, or padding that is not all zero.
  public static func decode(_ plain: SecureBytes, vaultID: VaultID, entryID: [UInt8]) throws
    -> (record: SignedJournalRecord, signature: [UInt8], signedCount: Int)
  {
    try plain.withBytes { bytes in
      guard bytes.count >= fixedHeadCount, bytes[..<magic.count].elementsEqual(magic) else {
        throw VaultError.integrity(.journalEntry(.malformed))
      }
      var offset = magic.count
      func next(_ count: Int) -> UnsafeRawBufferPointer.SubSequence {
        defer { offset += count }
        return bytes[offset..<offset + count]
      }
      guard next(VaultID.byteCount).elementsEqual(vaultID.bytes) else {
        throw VaultError.integrity(.journalEntry(.copiedFromAnotherVault))
      }
      guard next(idByteCount).elementsEqual(entryID) else {
        throw VaultError.integrity(.journalEntry(.copiedFromAnotherEntry))
      }
      let writerID = Array(next(idByteCount))
      let sequence = number(UInt64.self, next(8))
      let revision = number(UInt64.self, next(8))
      guard sequence >= 1, revision >= 1 else {
        throw VaultError.integrity(.journalEntry(.zeroSequenceOrRevision))
      }
      let stampCount = Int(next(1).first ?? 0)
      let stampText =
        bytes.count - offset >= stampCount ? String(decoding: next(stampCount), as: UTF8.self) : ""
      guard let stamp = JournalStamp(parsing: stampText), stamp.description == stampText else {
        throw VaultError.integrity(.journalEntry(.malformedTime))
      }
      guard bytes.count - offset >= 4 else {
        throw VaultError.integrity(.journalEntry(.wrongLength))
      }
      let textCount = Int(number(UInt32.self, next(4)))
      let signedCount = offset + Padding.paddedLength(textCount)
      guard bytes.count == signedCount + Signing.signatureByteCount else {
        throw VaultError.integrity(.journalEntry(.wrongLength))
      }
      let text = SecureBytes(count: textCount)
      text.withMutableBytes {
        $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: next(textCount)))
      }
      guard next(signedCount - offset).reduce(0, |) == 0 else {
        throw VaultError.integrity(.journalEntry(.nonzeroPadding))
      }
      let record = SignedJournalRecord(
        checked: vaultID, entryID, writerID, sequence, revision, stamp, text)
      return (record, Array(next(Signing.signatureByteCount)), signedCount)
    }
  }

  /// Whether `signature` is the Ed25519 signature by `publicKey` of the first `signedCount` bytes
  /// of `plain` (`crypto_sign_verify_detached`), as `decode` returned them.
  ///
  /// False when `signedCount` is outside `plain`, or for wrong sizes of signature or key.
  public static func verify(
    _ plain: SecureBytes, signature: [UInt8], signedCount: Int, publicKey: [UInt8]
  ) -> Bool {
    guard signedCount >= 0, signedCount <= plain.count else { return false }
    return plain.withBytes {
      Signing.verify(
        signature, message: UnsafeRawBufferPointer(rebasing: $0[..<signedCount]),
        publicKey: publicKey)
    }
  }

  /// `decode`, then `verify` with the public key `writerKey` gives for the record's writer id.
  ///
  /// - Throws: what `decode` and `writerKey` throw, and `VaultError.integrity` when the signature
  ///   does not verify.
  public static func decodeVerified(
    _ plain: SecureBytes, vaultID: VaultID, entryID: [UInt8],
    writerKeys: (_ writerID: [UInt8]) throws -> [[UInt8]]
  ) throws -> SignedJournalRecord {
    let (record, signature, signedCount) = try decode(plain, vaultID: vaultID, entryID: entryID)
    let keys = try writerKeys(record.writerID)
    guard
      keys.contains(where: {
        verify(plain, signature: signature, signedCount: signedCount, publicKey: $0)
      })
    else { throw VaultError.integrity(.journalEntry(.signatureDoesNotVerify)) }
    return record
  }

  /// `value`'s bytes, most significant first.
  private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
  }

  /// The big-endian number in `bytes`.
  private static func number<T: FixedWidthInteger & UnsignedInteger>(
    _ type: T.Type, _ bytes: UnsafeRawBufferPointer.SubSequence
  ) -> T {
    bytes.reduce(0) { $0 << 8 | T($1) }
  }
}
