import VaultCrypto
import VaultFormat

extension Vault {
  /// The device record a user names by the hex digits of its id.
  ///
  /// - Parameter prefix: at least 4 hex digits (any case), the start of one device's 32.
  /// - Returns: the one record whose hex id starts with them.
  /// - Throws: `DeviceNameError` when they are too few or not hex, when no record or more than
  ///   one has them, or when they name a device already revoked.
  public func device(named prefix: String) throws -> DeviceRecord {
    let digits = prefix.lowercased()
    guard digits.utf8.count >= 4, digits.utf8.count <= 32,
      digits.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
    else {
      throw DeviceNameError.notHexDigits
    }
    let found = header.devices.filter { $0.deviceIDBytes.hex.hasPrefix(digits) }
    guard found.count == 1 else {
      if found.isEmpty,
        header.revokedDeviceHexIDs.contains(where: { $0.hasPrefix(digits) })
      {
        throw DeviceNameError.revokedAlready(digits: digits)
      }
      throw found.isEmpty
        ? DeviceNameError.noDevice(digits: digits)
        : DeviceNameError.ambiguous(digits: digits, count: found.count)
    }
    return found[0]
  }

  /// Refuses this device's own record as one to revoke.
  ///
  /// - Throws: `DeviceNameError.thisDevice` for it.
  public func requireOther(_ record: DeviceRecord) throws {
    guard record.deviceID != localDevice?.deviceID else { throw DeviceNameError.thisDevice }
  }

  /// Revokes another device (`vault(5)` Devices under SYNC REPOSITORY): its record leaves the
  /// header, its id joins `revoked_devices` with its revocation signed by the code's enrollment
  /// key, and its writer key joins `retired_writers`, in one write that makes a new state.
  ///
  /// - Parameters:
  ///   - record: a record of the header, not this device's.
  ///   - code: the recovery code in force (canonical form), which a header with an enrollment
  ///     key needs (`isEnrolled`); in one without, the revocation is signed when the
  ///     code enrolls the header.
  /// - Throws: `DeviceNameError.thisDevice` for this device's own record; `RevocationError`
  ///   when the header holds `Header.maximumRevokedDevices` ids or `Header.maximumRetiredWriters`
  ///   writer keys already, or when the code is needed and missing;
  ///   `VaultError.wrongRecoveryCode` for a code that is not the one in force; `.integrity` for a
  ///   header whose devices or revocations the code did not enroll; `.vaultChanged`, `.storage`
  ///   as `writeHeader`.
  public func revoke(_ record: DeviceRecord, masterKey: SymmetricKey, code: SecureBytes?) throws {
    try requireOther(record)
    var updated = header
    var revoked = updated.revocationPairs
    guard revoked.count < Header.maximumRevokedDevices else {
      throw RevocationError.revokedDevicesFull(maximum: Header.maximumRevokedDevices)
    }
    var signed: SignedRevocation?
    if header.enrollmentKey != nil {
      guard let code else {
        throw RevocationError.codeInForceNeeded
      }
      try header.verifyEnrollments()
      let signer = try checkedEnrollmentKey(code: code)
      signed = Enrollment.revocation(
        of: record.deviceID, writerKey: record.writerKey, by: signer, vaultID: vaultID)
    }
    revoked.append(RevokedDevice(deviceID: record.deviceID, signed: signed))
    updated.devices.removeAll { $0.deviceID == record.deviceID }
    updated.setRevocations(revoked)
    let retired = RetiredWriter(deviceID: record.deviceID, writerKey: record.writerKey)
    var writers = updated.retiredWriters ?? []
    if !writers.contains(retired) { writers.append(retired) }
    guard writers.count <= Header.maximumRetiredWriters else {
      throw RevocationError.retiredWritersFull(maximum: Header.maximumRetiredWriters)
    }
    updated.retiredWriters = writers
    try writeHeader(updated, masterKey: masterKey)
  }
}

extension Header {
  /// The revoked device ids in hex (32 digits each), oldest first.
  public var revokedDeviceHexIDs: [String] {
    (revokedDevices ?? []).map { ((try? [UInt8](base64: $0, field: "revoked_devices")) ?? []).hex }
  }
}
