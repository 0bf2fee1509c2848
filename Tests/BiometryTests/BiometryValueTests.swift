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
      (.userFallback, -3, "user_fallback"),
      (.systemCancel, -4, "system_cancel"),
      (.passcodeNotSet, -5, "passcode_not_set"),
      (.biometryNotAvailable, -6, "biometry_not_available"),
      (.biometryNotEnrolled, -7, "biometry_not_enrolled"),
      (.biometryLockout, -8, "biometry_lockout"),
      (.appCancel, -9, "app_cancel"),
      (.invalidContext, -10, "invalid_context"),
      (.biometryNotPaired, -12, "biometry_not_paired"),
      (.biometryDisconnected, -13, "biometry_disconnected"),
      (.notInteractive, -1004, "not_interactive"),
    ]
    #expect(LAError.allCases.count == expected.count)
    for (error, code, kind) in expected {
      #expect(error.code == code)
      #expect(error.kind == kind)
      #expect(error.words == kind.split(separator: "_").joined(separator: " "))
    }
    #expect(LAError.biometryLockout.name == "biometryLockout")
    #expect(LAError.biometryLockout.android == "ERROR_LOCKOUT 7, ERROR_LOCKOUT_PERMANENT 9")
    #expect(LAError.passcodeNotSet.android == "ERROR_NO_DEVICE_CREDENTIAL 14")
  }

  @Test func outcomesAndAvailability() {
    #expect(
      Outcome.allCases.map(\.rawValue) == [
        "match", "no-match", "retry", "cancel", "fallback", "system-cancel", "app-cancel",
        "timeout",
      ])
    #expect(
      SensorAvailability.allCases.map(\.rawValue) == [
        "available", "unavailable", "disconnected", "not-paired",
      ])
    #expect(SensorProfile.allCases.map(\.rawValue) == ["apple", "android"])
    #expect(BiometryType.allCases.map(SensorState.enrollmentLimit) == [0, 5, 2, 1])
  }
}
