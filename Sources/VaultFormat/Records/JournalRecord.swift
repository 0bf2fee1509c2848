import VaultCrypto

/// The plaintext sealed into one journal entry, which binds the entry to its vault, its row and
/// its time.
///
/// Layout (all inside the `crypto_box_seal` box, so an attacker can neither read nor change it
/// without the journal secret key):
///
///     "vault.journal.v1"   16 bytes, ASCII
///     vault id             16 bytes
///     entry id             16 bytes, equal to the row's `entry_id`
///     stamp length         1 byte
///     stamp                ASCII, `YYYY-MM-DDTHH:MM:SS±HH:MM` (local time and offset)
///     text                 the rest, exactly as written
///
/// A sealed box copied into another vault or onto another row opens, but names another vault or
/// entry id, and is refused.
enum JournalRecord {
  static let magic = DomainLabel.journal.bytes
  static let headerCount = magic.count + 16 + 16 + 1

  /// The record for `text`, in guarded memory.
  static func encode(vaultID: VaultID, entryID: [UInt8], stamp: JournalStamp, text: SecureBytes)
    -> SecureBytes
  {
    let stampBytes = Array(stamp.description.utf8)
    let head = magic + vaultID.bytes + entryID + [UInt8(stampBytes.count)] + stampBytes
    return SecureBytes(concatenating: head, text)
  }

  /// The stamp and text of an opened record, after checking what it is bound to.
  ///
  /// - Throws: `VaultError.integrity` when the record is malformed or belongs to another vault or
  ///   another entry.
  static func decode(_ plain: SecureBytes, vaultID: VaultID, entryID: [UInt8]) throws
    -> (stamp: JournalStamp, text: SecureBytes)
  {
    let (stamp, textStart) = try plain.withBytes { bytes -> (JournalStamp, Int) in
      guard bytes.count >= headerCount, Array(bytes[0..<magic.count]) == magic else {
        throw VaultError.integrity(.journalEntry(.malformed))
      }
      var offset = magic.count
      guard Array(bytes[offset..<offset + 16]) == vaultID.bytes else {
        throw VaultError.integrity(.journalEntry(.copiedFromAnotherVault))
      }
      offset += 16
      guard Array(bytes[offset..<offset + 16]) == entryID else {
        throw VaultError.integrity(.journalEntry(.copiedFromAnotherEntry))
      }
      offset += 16
      let length = Int(bytes[offset])
      offset += 1
      guard bytes.count >= offset + length,
        let stamp = JournalStamp(
          parsing: String(decoding: bytes[offset..<offset + length], as: UTF8.self))
      else { throw VaultError.integrity(.journalEntry(.malformedTime)) }
      return (stamp, offset + length)
    }
    return (stamp, plain.suffix(from: textStart))
  }
}
