import VaultCore

extension ImportError: ReportableError {
  /// A source that changed between its two reads is invalid input (5).
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user.
  var message: String {
    switch self {
    case .sourceGaveOtherItems:
      "the source gave other items the second time it was read; nothing was written"
    case .sourceGaveFewerItems:
      "the source gave fewer items the second time it was read; nothing was written"
    }
  }
}
