/// Values of the command-line tool that the manual pages quote, public so that the manual
/// generator (`VaultManualGenerator`, which is not part of the `vault` binary) reads them rather
/// than retyping them.
public enum ManualFacts {
  /// The application id of the CLI's biometric checks, an input of the simulated domain state.
  public static let biometricAppID = SensorGate.appID

  /// `seconds` as the CLI's messages write a duration: `45 s`, `15 min`, `1 h 30 min`.
  public static func duration(_ seconds: Int) -> String { ExitStatus.duration(seconds) }
}
