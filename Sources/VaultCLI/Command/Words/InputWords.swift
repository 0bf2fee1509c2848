import VaultFormat

/// The words of refused input: which name, value or limit.
enum InputWords {
  /// The one-line message, said as it is.
  static func phrase(_ fault: InputFault) -> String {
    switch fault {
    }
  }
}
