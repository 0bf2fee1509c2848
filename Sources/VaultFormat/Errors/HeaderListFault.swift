/// Why the header's lists of rotations, handoffs, revoked devices, revocations or retired
/// writers are not as the format allows (`HeaderFault.lists`).
public enum HeaderListFault: Equatable, Sendable {
  /// The rotations are out of order, or a generation is out of bounds.
  case rotationsOutOfOrder
  /// More than `maximum` handoffs.
  case tooManyHandoffs(maximum: Int)
  /// The revoked devices repeat an id, name a device the header holds, or exceed `maximum`.
  case revokedDevicesInvalid(maximum: Int)
  /// The revocations are not one for each revoked device of an enrolled header.
  case revocationsNotOnePerDevice
  /// A revoked device of an enrolled header has no revocation.
  case revocationMissing
  /// More than `maximum` retired writer keys.
  case tooManyRetiredWriters(maximum: Int)
}
