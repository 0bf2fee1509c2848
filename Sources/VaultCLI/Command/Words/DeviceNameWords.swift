import VaultCore

extension DeviceNameError: ReportableError {
  /// A DEVICE that names no device is invalid input (5).
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user.
  var message: String {
    switch self {
    case .notHexDigits:
      "DEVICE is 4 to 32 hex digits of a device id, as 'vault sync devices' shows it"
    case .revokedAlready(let digits): RevokedAlready(digits: digits, rekeying: false).message
    case .noDevice(let digits):
      "no device of this vault has an id that starts with \(digits); 'vault sync devices' lists"
        + " them"
    case .ambiguous(let digits, let count):
      "\(count) devices have an id that starts with \(digits); give more digits"
    case .thisDevice:
      "this is the device you are on; revoke it from another device, or delete its vault file"
    }
  }
}

/// `vault sync revoke DEVICE` of a device revoked already; with `--rekey`, the words say that
/// `vault rekey` is what rotates the key.
struct RevokedAlready: ReportableError {
  /// The digits the user gave.
  let digits: String
  /// True when `--rekey` was given.
  let rekeying: Bool

  var exitCode: ExitCode { .invalidInput }

  var message: String {
    "the device \(digits) was revoked already"
      + (rekeying ? "; 'vault rekey' rotates the master key" : "")
  }
}
