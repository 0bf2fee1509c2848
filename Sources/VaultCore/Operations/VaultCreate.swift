import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat
import VaultJournal

extension Vault {
  /// What `create` hands back: the open vault, its master key and the one-time recovery code.
  public struct Created {
    /// The new vault.
    public let vault: Vault
    /// Its master key, for activating biometry in the same command.
    public let masterKey: SymmetricKey
    /// The recovery code in canonical form; show it once with `RecoveryCode.display`.
    public let recoveryCode: SecureBytes
    /// Seconds of one core that one PIN guess costs on this machine (the PIN keyslot's
    /// Argon2id, measured as it ran).
    public let guessSeconds: Double
  }

  /// Refuses a PIN too short to be set.
  ///
  /// - Throws: `VaultError.invalidInput`.
  static func requireNewPIN(_ pin: PIN) throws {
    guard pin.isLongEnoughToSet else {
      throw VaultError.invalidInput(.pin(.tooShortToSet(minimum: PIN.minimumNewLength)))
    }
  }

  /// This device's journal writer for `vaultID`, made when it has none.
  static func writer(for vaultID: VaultID, deviceID: [UInt8], in state: inout DeviceState)
    throws -> SigningKeyPair
  {
    if let record = state.writers[vaultID.hex], record.deviceID == deviceID.base64 {
      return try record.keyPair()
    }
    let pair = Signing.generate()
    state.writers[vaultID.hex] = WriterRecord(
      deviceID: deviceID.base64, secretKey: pair.secretKey, sequence: 0)
    return pair
  }

  /// Creates a new vault at `path`: one device record for this device (its PIN keyslot) and a
  /// recovery slot, the journal key pair, and the first state.
  ///
  /// The file is built under a temporary name and linked into place only when complete, so a
  /// failure leaves nothing behind and an existing vault is never overwritten.
  ///
  /// - Throws: `VaultError.vaultExists`, `.invalidInput` for a PIN too short, `.storage` on I/O
  ///   failure.
  public static func create(
    path: String, pin: PIN, kdf: KDFParameters, policy: Policy, environment: VaultEnvironment
  ) throws -> Created {
    if FileManager.default.fileExists(atPath: path) { throw VaultError.vaultExists(path) }
    try requireNewPIN(pin)
    try prepareFolder(of: path)
    let store = DeviceStore(environment: environment)
    let deviceSecret = try store.read().deviceSecret

    let vaultID = VaultID.random()
    let masterKey = SymmetricKey.random()
    let deviceID = SecureBytes.random(count: 16).unprotectedBytes
    let writer = try store.update { try Self.writer(for: vaultID, deviceID: deviceID, in: &$0) }
    let pinSalt = Salt.random()
    let (pinKEK, guessSeconds) = try timed {
      try DeviceRecord.pinKEK(
        pin: pin.bytes, salt: pinSalt, kdf: kdf, vaultID: vaultID, deviceSecret: deviceSecret)
    }
    let code = RecoveryCode.generate()
    let journal = SealedBox.keyPair()
    let journalBox = JournalStore.sealSecretKey(
      journal.secretKey, masterKey: masterKey, vaultID: vaultID)
    var device = DeviceRecord.make(
      deviceID: deviceID, deviceSecret: deviceSecret, vaultID: vaultID, kdf: kdf, salt: pinSalt,
      kek: pinKEK, masterKey: masterKey, writerKey: writer.publicKey)
    device.enrollmentSerial = 1
    device.policy = policy
    let header = Header(
      format: Header.currentFormat, vaultID: vaultID, kdf: kdf, policy: policy,
      devices: [device],
      recovery: try RecoverySlot.make(
        code: code, masterKey: masterKey, vaultID: vaultID, kdf: kdf),
      journalPublicKey: journal.publicKey.base64, journalSecretKey: journalBox.base64,
      chunkHash: .tag
    ).enrolled(by: try Enrollment.key(code: code, vaultID: vaultID))
    let body = try header.encoded()

    let first = try makeFile(
      at: path, vaultID: vaultID, masterKey: masterKey,
      header: (body, Header.mac(body, masterKey: masterKey)))
    let vault = try open(path: path, environment: environment)
    try vault.device.update {
      vault.recordAuthenticatedHeader(in: &$0)
      vault.remember(first, in: &$0)
      $0.guessSeconds[vaultID.hex] = guessSeconds
      $0.shortPINs.remove(vaultID.hex)
    }
    vault.verifiedState = first
    return Created(
      vault: vault, masterKey: masterKey, recoveryCode: code, guessSeconds: guessSeconds)
  }

}
