import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat
import VaultSecrets

/// The constants of the `vault` export format (`vault(5)` EXPORT FORMAT): a header in the clear,
/// then one `crypto_secretstream_xchacha20poly1305` stream under a key derived from a passphrase.
public enum VaultExport {
  /// The file's first 8 bytes, `VAULTEXP`.
  public static let magic = Array("VAULTEXP".utf8)
  /// The version this build writes and reads.
  public static let version: UInt8 = 1
  /// The header's bytes before the check (magic, version, KDF parameters, salt), which the check
  /// covers.
  public static let prefixByteCount = 41
  /// The passphrase check's bytes.
  public static let checkByteCount = 16
  /// The whole header: prefix, check and the stream's 24-byte header.
  public static let headerByteCount = 81
  /// The plaintext bytes of every message but the last (64 KiB).
  public static let pieceSize = 65536
  /// Ciphertext bytes beyond each message's plaintext (`SecretStream.overhead`, 17).
  public static var messageOverhead: Int { SecretStream.overhead }
  /// The longest content an entry record may hold, in bytes (1 TiB).
  public static let maximumContentBytes: UInt64 = 1 << 40

  /// The profile (among the user profiles and `test`) with exactly these values, or nil.
  public static func profile(opsLimit: UInt64, memLimit: UInt64) -> KDFParameters? {
    (KDFParameters.userProfiles + [.test]).first {
      $0.opsLimit == opsLimit && $0.memLimit == memLimit
    }
  }

  /// The header's prefix: magic, version, opslimit and memlimit (u64be, memlimit in bytes),
  /// salt.
  static func prefix(parameters: KDFParameters, salt: Salt) -> [UInt8] {
    magic + [version] + bigEndian(parameters.opsLimit) + bigEndian(parameters.memLimit) + salt.bytes
  }

  static func bigEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }

  /// The passphrase check and the stream key from `key = Argon2id(passphrase, salt, kdf)`:
  /// BLAKE2b-16(key, `vault.export-check.v1` || prefix) and BLAKE2b-32(key,
  /// `vault.export-key.v1`) (`crypto_generichash`, RFC 7693).
  ///
  /// - Throws: `VaultError.storage` when Argon2id cannot allocate its memory.
  static func derive(passphrase: ExportPassphrase, parameters: KDFParameters, prefix: [UInt8])
    throws -> (check: [UInt8], streamKey: SymmetricKey)
  {
    let salt = try Salt(Array(prefix.suffix(Salt.byteCount)))
    let key = try Argon2id.derive(secret: passphrase.bytes, salt: salt, parameters: parameters)
    return keys(from: key, prefix: prefix)
  }

  /// The check and stream key from the Argon2id output `key` (see `derive`).
  static func keys(from key: SecureBytes, prefix: [UInt8]) -> (
    check: [UInt8], streamKey: SymmetricKey
  ) {
    let check = GenericHash.keyed(
      key: key, parts: [DomainLabel.exportCheck.bytes, prefix], outputLength: checkByteCount)
    let streamKey = GenericHash.keyedSecret(key: key, parts: [DomainLabel.exportKey.bytes])
    return (check, SymmetricKey(streamKey))
  }

  /// The associated data of every message: `vault.export.v1` || the 81-byte header.
  static func associatedData(header: [UInt8]) -> [UInt8] {
    DomainLabel.export.bytes + header
  }
}

/// The passphrase of a `vault` export, in guarded memory: its UTF-8 bytes after NFC
/// normalization, without control characters, 1 to `maximumByteCount` bytes.
public struct ExportPassphrase: Sendable, CustomStringConvertible {
  /// The fewest characters (Unicode scalars) of a new passphrase: the audit's short password.
  public static let minimumLength = PasswordStrength.minimumLength
  /// The fewest estimated bits of a new passphrase (`PasswordStrength.estimatedBits`): the
  /// audit's weak password.
  public static let minimumBits = PasswordStrength.minimumBits
  /// The longest passphrase, in bytes after normalization.
  public static let maximumByteCount = 1024

  /// The NFC-normalized UTF-8 bytes.
  public let bytes: SecureBytes

  /// Normalizes one typed line (without its newline).
  ///
  /// Pure-ASCII input is already in NFC and never copied; other input is normalized through a
  /// short-lived `String`, wiped copies aside (Foundation has no in-place NFC).
  ///
  /// - Throws: `ExportError.passphrase` for an empty line, invalid UTF-8, a control character
  ///   or more than `maximumByteCount` bytes.
  public init(utf8 raw: SecureBytes) throws {
    guard raw.count > 0 else { throw ExportError.passphrase(.empty) }
    let isASCII = raw.withBytes { $0.allSatisfy { $0 < 0x80 } }
    if isASCII {
      let printable = raw.withBytes { $0.allSatisfy { $0 >= 0x20 && $0 != 0x7F } }
      guard printable else { throw ExportError.passphrase(.controlCharacter) }
      guard raw.count <= Self.maximumByteCount else { throw Self.tooLong }
      bytes = raw
      return
    }
    var copy = raw.unprotectedBytes
    defer { wipe(&copy) }
    guard let text = String(validating: copy, as: UTF8.self) else {
      throw ExportError.passphrase(.notUTF8)
    }
    guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { throw ExportError.passphrase(.controlCharacter) }
    var normalized = Array(text.canonicallyComposed.utf8)
    defer { wipe(&normalized) }
    guard normalized.count <= Self.maximumByteCount else { throw Self.tooLong }
    bytes = SecureBytes(copying: normalized)
  }

  private static var tooLong: ExportError {
    .passphrase(.tooLong(maximumBytes: maximumByteCount))
  }

  /// The number of Unicode scalars.
  public var length: Int {
    bytes.withBytes { String(decoding: $0, as: UTF8.self).unicodeScalars.count }
  }

  /// Checks a passphrase chosen for a new export.
  ///
  /// - Throws: `ExportError.passphrase` for fewer than `minimumLength` characters or fewer than
  ///   `minimumBits` estimated bits.
  public func checkStrength() throws {
    guard length >= Self.minimumLength else {
      throw ExportError.passphrase(.tooShort(length: length, minimum: Self.minimumLength))
    }
    let bits = Int(PasswordStrength.estimatedBits(bytes))
    guard bits >= Self.minimumBits else {
      throw ExportError.passphrase(.weak(bits: bits, minimum: Self.minimumBits))
    }
  }

  /// `<redacted>`.
  public var description: String { "<redacted>" }
}

/// Writes a `vault` export: the header, then the plaintext it is given sealed in messages of
/// `VaultExport.pieceSize` bytes, each handed to `emit` as it is made.
///
/// One piece is held back (in guarded memory) so that the last can be tagged final; `finish`
/// adds the zero padding to `Padding.paddedLength` of everything appended.
public final class VaultExportSealer {
  private let emit: (UnsafeRawBufferPointer) throws -> Void
  private let stream: SecretStream
  private let associatedData: [UInt8]
  private let piece = PieceBuffer(size: VaultExport.pieceSize)
  private var finished = false
  /// The plaintext bytes appended so far.
  public private(set) var length = 0
  /// The header written first (`VaultExport.headerByteCount` bytes).
  public let header: [UInt8]

  /// Derives the key from `passphrase` with `parameters` and a random salt (Argon2id,
  /// `crypto_pwhash`), starts the stream (`crypto_secretstream_xchacha20poly1305_init_push`,
  /// which draws its header) and hands the file's header to `emit`.
  ///
  /// - Throws: `VaultError.storage` when Argon2id cannot allocate its memory; what `emit`
  ///   throws.
  public init(
    passphrase: ExportPassphrase, parameters: KDFParameters,
    emit: @escaping (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    self.emit = emit
    let prefix = VaultExport.prefix(parameters: parameters, salt: Salt.random())
    let (check, streamKey) = try VaultExport.derive(
      passphrase: passphrase, parameters: parameters, prefix: prefix)
    let (stream, streamHeader) = SecretStream.pushing(key: streamKey)
    self.stream = stream
    header = prefix + check + streamHeader
    associatedData = VaultExport.associatedData(header: header)
    try header.withUnsafeBytes { try emit($0) }
  }

  /// Appends plaintext, sealing every full piece that more bytes follow.
  ///
  /// - Throws: what `emit` throws.
  public func append(_ bytes: UnsafeRawBufferPointer) throws {
    precondition(!finished, "an export is not appended to after finish")
    try piece.append(bytes) { try seal($0, final: false) }
    length += bytes.count
  }

  /// Appends public bytes (a record's fixed fields).
  ///
  /// - Throws: what `emit` throws.
  public func append(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try append($0) }
  }

  /// Appends the bytes of `secret`.
  ///
  /// - Throws: what `emit` throws.
  public func append(_ secret: SecureBytes) throws {
    try secret.withBytes { try append($0) }
  }

  /// Appends the zero padding and seals the last piece, tagged `TAG_FINAL`.
  ///
  /// - Returns: the plaintext's length with its padding.
  /// - Throws: what `emit` throws.
  @discardableResult
  public func finish() throws -> Int {
    let padded = Padding.paddedLength(length)
    try piece.appendZeros(padded - length) { try seal($0, final: false) }
    length = padded
    try piece.flush { try seal($0, final: true) }
    finished = true
    return padded
  }

  private func seal(_ plaintext: UnsafeRawBufferPointer, final: Bool) throws {
    let message = stream.push(plaintext, associatedData: associatedData, final: final)
    try message.withUnsafeBytes { try emit($0) }
  }
}

/// Reads a `vault` export: checks its header before any key is derived, checks the passphrase,
/// then hands its plaintext over one message at a time, so that no more than one piece is held.
///
/// Failures are kept apart: a file that is no export, of another version or with parameters of
/// no profile is `ExportError`; a check that differs is `.wrongPassphrase`; a
/// message that does not open, a file cut short or bytes after the final message are
/// `.integrity`.
public final class VaultExportOpener {
  /// The header's Argon2id parameters, one of the profiles.
  public let parameters: KDFParameters
  private let header: [UInt8]
  private let read: (UnsafeMutableRawBufferPointer) throws -> Int
  private var stream: SecretStream?
  private var ciphertext = [UInt8](
    repeating: 0, count: VaultExport.pieceSize + VaultExport.messageOverhead)
  private let piece = SecureBytes(count: VaultExport.pieceSize)
  private var ended = false
  /// The length of the first message, read with the header and not opened yet.
  private var buffered: Int?
  /// The messages opened so far.
  public private(set) var messages = 0

  /// Reads the header through `read`, which fills the buffer it is given from the start as far
  /// as it can and returns how many bytes it put there (0 at the end of the file).
  ///
  /// - Throws: `ExportError` for a file without the magic, another version, or KDF parameters
  ///   that are not exactly a profile's; `VaultError.integrity` for a file that ends inside
  ///   its header or before its first message (both are read here); what `read` throws.
  public init(reading read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws {
    self.read = read
    var header = [UInt8](repeating: 0, count: VaultExport.headerByteCount)
    let got = try header.withUnsafeMutableBytes { try Self.fill($0, read) }
    guard got >= VaultExport.magic.count, header.starts(with: VaultExport.magic) else {
      throw ExportError.notAnExport
    }
    guard got > VaultExport.magic.count else {
      throw VaultError.integrity(.export(.cutShortInHeader))
    }
    guard header[8] == VaultExport.version else {
      throw ExportError.unsupportedVersion(found: header[8], reads: VaultExport.version)
    }
    guard got == VaultExport.headerByteCount else {
      throw VaultError.integrity(.export(.cutShortInHeader))
    }
    let ops = header[9..<17].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let mem = header[17..<25].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    guard let profile = VaultExport.profile(opsLimit: ops, memLimit: mem) else {
      throw ExportError.notAProfile(opsLimit: ops, memLimit: mem)
    }
    parameters = profile
    self.header = header
    // The first message is read now, so that a file that cannot hold one costs no derivation.
    let first = try ciphertext.withUnsafeMutableBytes { try Self.fill($0, read) }
    guard first > VaultExport.messageOverhead else {
      throw VaultError.integrity(.export(.endsBeforeFirstMessage))
    }
    buffered = first
  }

  /// Reads an export held in `bytes` (the whole file).
  ///
  /// - Throws: as `init(reading:)`.
  public convenience init(bytes: SecureBytes) throws {
    let cursor = ByteCursor(bytes)
    try self.init(reading: { try cursor.read(into: $0) })
  }

  /// Derives the key from `passphrase` (Argon2id with the header's parameters) and checks it
  /// (constant time) against the header's check.
  ///
  /// - Throws: `VaultError.wrongPassphrase` when the check differs; `.storage` when Argon2id
  ///   cannot allocate its memory.
  public func unlock(_ passphrase: ExportPassphrase) throws {
    let prefix = Array(header.prefix(VaultExport.prefixByteCount))
    let (check, streamKey) = try VaultExport.derive(
      passphrase: passphrase, parameters: parameters, prefix: prefix)
    let stored = Array(
      header[VaultExport.prefixByteCount..<VaultExport.prefixByteCount + VaultExport.checkByteCount]
    )
    guard constantTimeEqual(check, stored) else { throw VaultError.wrongPassphrase }
    stream = try SecretStream.pulling(
      key: streamKey, header: Array(header.suffix(SecretStream.headerByteCount)),
      what: "the export")
  }

  /// The plaintext of the next message, valid until the next call; nil once the message tagged
  /// final was handed over (and nothing follows it).
  ///
  /// - Precondition: `unlock` succeeded.
  /// - Throws: `VaultError.integrity` when a message does not open, a message that is not
  ///   tagged final is short or has another tag, the file ends before the final message, or
  ///   bytes follow it; what `read` throws.
  public func nextPiece() throws -> UnsafeRawBufferPointer? {
    guard let stream else { preconditionFailure("an export is read after unlock") }
    guard !ended else { return nil }
    let got = try buffered ?? ciphertext.withUnsafeMutableBytes { try Self.fill($0, read) }
    buffered = nil
    guard got > VaultExport.messageOverhead else {
      throw VaultError.integrity(.export(.endsWithoutFinalMessage(messages: messages)))
    }
    let (count, tag) = try ciphertext.withUnsafeBytes {
      try stream.pull(
        UnsafeRawBufferPointer(rebasing: $0[0..<got]),
        associatedData: VaultExport.associatedData(header: header), into: piece,
        what: "message \(messages) of the export")
    }
    messages += 1
    if tag == SecretStream.finalTag {
      var probe: UInt8 = 0
      let more = try withUnsafeMutableBytes(of: &probe) { try read($0) }
      guard more == 0 else {
        throw VaultError.integrity(.export(.bytesAfterFinalMessage))
      }
      ended = true
    } else {
      guard tag == SecretStream.messageTag else {
        throw VaultError.integrity(.export(.unknownTag(message: messages - 1)))
      }
      guard count == VaultExport.pieceSize else {
        throw VaultError.integrity(.export(.shortMessage(messages - 1)))
      }
    }
    return piece.unsafeView(count: count)
  }

  /// Fills `buffer` from `read` until it is full or the input ends.
  ///
  /// - Returns: the bytes filled.
  static func fill(
    _ buffer: UnsafeMutableRawBufferPointer, _ read: (UnsafeMutableRawBufferPointer) throws -> Int
  ) throws -> Int {
    var filled = 0
    while filled < buffer.count {
      let n = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      guard n > 0 else { break }
      filled += n
    }
    return filled
  }
}

/// Reads the bytes of one buffer in order, for `VaultExportOpener(bytes:)`.
final class ByteCursor {
  private let bytes: SecureBytes
  private var offset = 0

  init(_ bytes: SecureBytes) { self.bytes = bytes }

  /// Copies the next bytes into `buffer`, as many as fit; 0 at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let n = min(buffer.count, bytes.count - offset)
    guard n > 0 else { return 0 }
    bytes.withBytes {
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + n]))
    }
    offset += n
    return n
  }
}
