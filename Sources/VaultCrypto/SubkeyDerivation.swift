import CSodium

/// The vault's subkeys, derived from the master key with `crypto_kdf_derive_from_key` (BLAKE2b-based KDF).
///
/// Each purpose has its own 8-byte context string and subkey id; the values are part of the file
/// format (`vault(5)`) and must never change.
public enum Subkey: CaseIterable, Sendable {
  /// Encrypts entry metadata and content chunks (context `vaultent`, id 1).
  case entries
  /// Keys the BLAKE2b name index (context `vaultidx`, id 2).
  case nameIndex
  /// Authenticates the header (context `vaulthdr`, id 3).
  case header
  /// Seals the biometric activation record (context `vaultbio`, id 4).
  case biometry
  /// Wraps the journal's X25519 secret key (context `vaultjnl`, id 5).
  case journal
  /// Seals every format-2 record but journal entries, and every content chunk (context
  /// `vaultrec`, id 6).
  case records
  /// Keys the row hashes of the format-2 aggregates (context `vaultrow`, id 7).
  case rows
  /// Keys the format-2 state MAC (context `vaultsta`, id 8).
  case state
  /// Seals the previous master key after a rotation (context `vaultrot`, id 9).
  case rotation
  /// Keys the `crypto_secretstream_xchacha20poly1305` streams of large contents (context
  /// `vaultstr`, id 10).
  case streams
  /// Seals the files of a sync repository (context `vaultsyn`, id 11).
  case sync
  /// Names and hashes the files of a sync repository (context `vaultsyx`, id 12).
  case syncIndex

  /// The 8-byte `crypto_kdf` context.
  public var context: String {
    switch self {
    case .entries: "vaultent"
    case .nameIndex: "vaultidx"
    case .header: "vaulthdr"
    case .biometry: "vaultbio"
    case .journal: "vaultjnl"
    case .records: "vaultrec"
    case .rows: "vaultrow"
    case .state: "vaultsta"
    case .rotation: "vaultrot"
    case .streams: "vaultstr"
    case .sync: "vaultsyn"
    case .syncIndex: "vaultsyx"
    }
  }

  /// The `crypto_kdf` subkey id.
  public var id: UInt64 {
    switch self {
    case .entries: 1
    case .nameIndex: 2
    case .header: 3
    case .biometry: 4
    case .journal: 5
    case .records: 6
    case .rows: 7
    case .state: 8
    case .rotation: 9
    case .streams: 10
    case .sync: 11
    case .syncIndex: 12
    }
  }
}

extension SymmetricKey {
  /// Derives a 32-byte subkey with `crypto_kdf_derive_from_key(32, id, context, self)`.
  public func derive(_ subkey: Subkey) -> SymmetricKey {
    derive(id: subkey.id, context: subkey.context)
  }

  /// Derives a 32-byte subkey for an explicit id and 8-byte context (`crypto_kdf_derive_from_key`).
  public func derive(id: UInt64, context: String) -> SymmetricKey {
    _ = Sodium.ready
    let ctx = Array(context.utf8)
    precondition(ctx.count == Int(crypto_kdf_CONTEXTBYTES), "crypto_kdf context is 8 bytes")
    // A piece of a shared slab: a command derives a dozen subkeys, each otherwise a mapping.
    let out = SecureBytes(count: SymmetricKey.byteCount, packed: true)
    let contextChars = ctx.map { CChar(bitPattern: $0) }
    _ = crypto_kdf_derive_from_key(
      out.pointer.assumingMemoryBound(to: UInt8.self), SymmetricKey.byteCount, id, contextChars,
      bytes.bytePointer)
    return SymmetricKey(out)
  }
}
