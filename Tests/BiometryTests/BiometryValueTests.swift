import Biometry
import Testing

@Suite struct BiometryValueTests {
  @Test func biometryTypes() {
    #expect(BiometryType.allCases.map(\.rawValue) == ["none", "touch-id", "face-id", "optic-id"])
    #expect(BiometryType.allCases.map(\.attemptsPerEvaluation) == [0, 3, 2, 2])
    #expect(
      BiometryType.allCases.map(\.displayName) == ["none", "Touch ID", "Face ID", "Optic ID"])
    #expect(BiometryType.allCases.map(\.code) == [0, 1, 2, 4])
  }

  @Test func laErrorCodesAndKinds() {
    let expected: [(LAError, Int, String)] = [
      (.authenticationFailed, -1, "authentication_failed"),
      (.userCancel, -2, "user_cancel"),
      (.systemCancel, -4, "system_cancel"),
      (.appCancel, -9, "app_cancel"),
      (.notInteractive, -1004, "not_interactive"),
      (.biometryNotAvailable, -6, "biometry_not_available"),
      (.biometryNotEnrolled, -7, "biometry_not_enrolled"),
      (.biometryLockout, -8, "biometry_lockout"),
      (.biometryDisconnected, -13, "biometry_disconnected"),
      (.invalidContext, -10, "invalid_context"),
    ]
    #expect(LAError.allCases.count == expected.count)
    for (error, code, kind) in expected {
      #expect(error.code == code)
      #expect(error.kind == kind)
    }
  }

  @Test func outcomesAndAvailability() {
    #expect(
      Outcome.allCases.map(\.rawValue) == [
        "match", "no-match", "cancel", "system-cancel", "timeout",
      ])
    #expect(
      SensorAvailability.allCases.map(\.rawValue) == ["available", "unavailable", "disconnected"])
  }
}
