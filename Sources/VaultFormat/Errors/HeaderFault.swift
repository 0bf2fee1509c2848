/// Why the vault header could not be read: which field is missing, unknown or out of bounds.
///
/// Thrown as `VaultError.malformedHeader`; the command line gives the words (`HeaderWords`).
public enum HeaderFault: Equatable, Sendable {
  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// The header's body is not a header at all (`HeaderBodyFault`).
  case body(HeaderBodyFault)
  /// A member no release wrote: in `object`, the member `name`.
  case unknownField(HeaderObject, name: String)
  /// A policy this build does not know (in the header or a device record).
  case unknownPolicy(String)
  /// A biometry state this build does not know.
  case unknownBiometryState(String)
  /// The vault id has `found` bytes, not 16.
  case vaultIDLength(found: Int)
  /// The device records are not as the format allows (`DeviceRecordFault`).
  case deviceRecords(DeviceRecordFault)
  /// The lists of rotations, handoffs, revoked devices, revocations or retired writers are
  /// not as the format allows (`HeaderListFault`).
  case lists(HeaderListFault)
  /// The keyslots are not as the format allows (`KeyslotFault`).
  case keyslots(KeyslotFault)
  /// The Argon2id parameters or a salt are out of bounds (`KDFFault`).
  case kdf(KDFFault)

  // MARK: Records, state, SQLite, entries

  /// The base64 field `field` does not decode, or not to the length it must have.
  case invalidBase64(field: String)
}
