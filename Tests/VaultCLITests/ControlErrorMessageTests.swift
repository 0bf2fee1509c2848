import Biometry
import Testing

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// The words `biosim` says when a sensor control is refused (the command line owns them).
struct ControlErrorMessageTests {
  @Test func controlErrorMessages() {
    #expect(
      BiometryControlError.noSuchTemplate("x").message == "no enrolled template is labelled 'x'")
    #expect(
      BiometryControlError.duplicateLabel("x").message
        == "a template labelled 'x' is already enrolled")
    #expect(
      BiometryControlError.invalidCount(0).message
        == "the count must be between 1 and 100, not 0")
    #expect(
      BiometryControlError.invalidLabel("a\nb").message
        == "the label \"a\\nb\" is not valid: use 1 to 64 bytes, no control characters, "
        + "no leading or trailing spaces")
    #expect(BiometryControlError.noHardware.message.hasPrefix("the simulated device has no"))
    #expect(
      BiometryControlError.cannotUnlockDevice(.biometryLockout).message
        == "the device cannot be unlocked with biometry now: biometry lockout")
  }
}
