/// Why the header's device records are not as the format allows (`HeaderFault.deviceRecords`).
public enum DeviceRecordFault: Equatable, Sendable {
  /// There are none, or more than `maximum`.
  case count(maximum: Int)
  /// Two records share an id or a tag (or one has the format-1 writer's id).
  case sharedIDOrTag
  /// A record is enrolled in a header with no enrollment key.
  case enrolledWithoutKey
  /// A record of a header with an enrollment key is not enrolled.
  case notEnrolled
  /// A record's `enrollment_serial` is out of bounds.
  case enrollmentSerialOutOfBounds(Int)
  /// An active biometry record has no seal.
  case activeBiometryWithoutSeal
}
