import FoundationEssentials
import VaultCrypto
import VaultFormat

/// The state file of a sync repository (`vault(5)` SYNC REPOSITORY): a public part a joining
/// device reads before it has the key (the vault id, the KDF parameters and the recovery slot),
/// then, sealed under the `sync` subkey with that part in the associated data, the vault's
/// header and its MAC, the files aggregate of the tree, and the version vector.
public struct SyncStateFile: Equatable {
  /// The file's magic, `VAULTSYN`, followed by its version 1.
  static let magic = Array("VAULTSYN".utf8) + [1]

  /// What a device joining with the recovery code reads first.
  public struct Public: Codable, Equatable, Sendable {
    /// The vault's id.
    public var vaultID: VaultID
    /// The Argon2id parameters of the recovery slot.
    public var kdf: KDFParameters
    /// The recovery slot, as in the header.
    public var recovery: RecoverySlot
    /// What a device holding an older master key takes the newer one by; nil before the first
    /// rotation.
    public var handoff: Handoff?

    enum CodingKeys: String, CodingKey {
      case kdf, recovery, handoff
      case vaultID = "vault_id"
    }
  }

  /// The header's rotation links and every device's master box (`vault(5)` Taking a rotation).
  public struct Handoff: Codable, Equatable, Sendable {
    /// The header's `handoffs`.
    public var links: [KeyHandoff]
    /// The `master_box` of each device record of the header, in its order.
    public var masterBoxes: [String]

    enum CodingKeys: String, CodingKey {
      case links
      case masterBoxes = "master_boxes"
    }
  }

  /// The public part.
  public var publicPart: Public
  /// The vault header's body, as stored in the vault file.
  public var header: [UInt8]
  /// Its MAC.
  public var headerMAC: [UInt8]
  /// The files aggregate of the tree (32 bytes).
  public var files: [UInt8]
  /// The version vector.
  public var vector: VersionVector

  private struct Body: Codable {
    var files: String
    var header: String
    var headerMAC: String
    var vector: VersionVector

    enum CodingKeys: String, CodingKey {
      case files, header, vector
      case headerMAC = "header_mac"
    }
  }

  private static func json<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      return try [UInt8](encoder.encode(value))
    } catch {
      throw SyncError.stateNotEncodable
    }
  }

  private static func associatedData(_ vaultID: VaultID, prefix: [UInt8]) -> [UInt8] {
    DomainLabel.syncState.bytes + vaultID.bytes + prefix
  }

  /// The file's bytes, its body sealed under `files.sealKey`.
  ///
  /// - Throws: `SyncError.stateNotEncodable` when it cannot be encoded.
  func encoded(with codec: SyncFiles) throws -> [UInt8] {
    let publicBytes = try Self.json(publicPart)
    let prefix = Self.magic + Bytes.u32(publicBytes.count) + publicBytes
    var body = try Self.json(
      Body(
        files: files.base64, header: header.base64, headerMAC: headerMAC.base64, vector: vector))
    body += [UInt8](repeating: 0, count: (256 - body.count % 256) % 256)
    defer { wipe(&body) }
    return prefix
      + AEAD.seal(
        body, key: codec.sealKey,
        associatedData: Self.associatedData(publicPart.vaultID, prefix: prefix))
  }

  /// The public part of a state file, read without any key.
  ///
  /// - Throws: `VaultError.integrity` when the file is not a state file or its public part does
  ///   not parse.
  public static func readPublic(_ bytes: [UInt8]) throws -> Public {
    try split(bytes).publicPart
  }

  private static func split(_ bytes: [UInt8]) throws -> (
    publicPart: Public, prefix: [UInt8], box: [UInt8]
  ) {
    let why = VaultError.integrity(.syncState(.notAStateFile))
    guard bytes.count > magic.count + 4, bytes.starts(with: magic) else {
      throw why
    }
    let length = bytes[magic.count..<(magic.count + 4)].reduce(0) { $0 << 8 | Int($1) }
    let end = magic.count + 4 + length
    guard length <= 65536, bytes.count > end else { throw why }
    guard
      let publicPart = try? JSONDecoder().decode(
        Public.self, from: Data(bytes[(magic.count + 4)..<end]))
    else { throw why }
    return (publicPart, Array(bytes[0..<end]), Array(bytes[end...]))
  }

  /// Opens a state file of `codec`'s vault.
  ///
  /// - Throws: `VaultError.integrity` when it is not a state file, belongs to another vault,
  ///   does not open, or its body is malformed.
  static func open(_ bytes: [UInt8], codec: SyncFiles) throws -> SyncStateFile {
    let (publicPart, prefix, box) = try split(bytes)
    guard publicPart.vaultID == codec.vaultID else {
      throw VaultError.integrity(.syncState(.anotherVault))
    }
    let plain = try AEAD.open(
      box, key: codec.sealKey,
      associatedData: associatedData(codec.vaultID, prefix: prefix),
      what: "the sync repository's state file")
    let body = plain.withBytes { raw -> Body? in
      let bytes = Array(raw)
      let end = bytes.lastIndex { $0 != 0 }.map { $0 + 1 } ?? 0
      return try? JSONDecoder().decode(Body.self, from: Data(bytes[0..<end]))
    }
    guard let body, body.vector.isWellFormed,
      let files = try? [UInt8](base64: body.files, count: 32, field: "files"),
      let header = try? [UInt8](base64: body.header, field: "header"),
      let mac = try? [UInt8](base64: body.headerMAC, count: 32, field: "header_mac")
    else { throw VaultError.integrity(.syncState(.malformed)) }
    return SyncStateFile(
      publicPart: publicPart, header: header, headerMAC: mac, files: files, vector: body.vector)
  }
}

extension SyncStateFile.Public {
  /// The public part of a state file for `header`.
  init(_ header: Header) {
    self.init(
      vaultID: header.vaultID, kdf: header.kdf, recovery: header.recovery,
      handoff: header.handoffs.map {
        SyncStateFile.Handoff(links: $0, masterBoxes: header.devices.map(\.masterBox))
      })
  }
}
