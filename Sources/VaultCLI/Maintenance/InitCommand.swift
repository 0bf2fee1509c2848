import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `vault init`.
struct InitCommand: VaultCommand {
  static let about = CommandAbout(
    "init", "Create a new vault and print its one-time recovery code.",
    discussion: """
      Asks for a new PIN twice (or reads one line from --pin-fd), creates the vault and \
      prints the recovery code once on the terminal (standard error when there is none), \
      in 9 groups of 4 whose last is a check group. \
      When the sensor has an enrollment, biometric unlock is activated at once with a \
      match; otherwise enroll and run 'vault biometry activate'. When that activation fails, \
      the vault stays created and the command exits with the failure's code.
      """)

  @OptionParameter(Keys.kdf) var kdf
  @FlagParameter(Keys.noBiometry) var noBiometry

  func run(_ context: Context) throws -> Int32 {
    let profile = self.kdf ?? .moderate
    // The minimum cost protects nothing: only the test suite may choose it, explicitly.
    if profile == .test && context.environment.variables[KDFProfile.testSwitch] != "1" {
      throw UsageError(
        message: "invalid value 'test' for --kdf (\(KDFProfile.choiceList))", path: ["init"])
    }
    let kdf = profile.parameters
    let path = context.vaultPath
    if FileManager.default.fileExists(atPath: path) { throw VaultError.vaultExists(path) }
    let biometric = !noBiometry
    let pin = try context.readNewPIN()
    let created = try Vault.create(
      path: path, pin: pin, kdf: kdf,
      policy: biometric ? .pinAndBiometry : .pinOnly,
      environment: context.environment)
    Output.error("Created \(path)" + (kdf == .test ? " (test KDF: no brute-force protection)" : ""))
    // The code is shown, never written to standard output, which may be a log file.
    context.showRecoveryCode(created.recoveryCode)
    Output.error(GuessCost.line(for: pin, seconds: created.guessSeconds))
    guard biometric else {
      Output.error("Policy: PIN only (no biometric check).")
      return 0
    }
    let access = context.access(created.vault)
    do {
      try access.gate.preflight()
    } catch BiometricFailure.notEnrolled, BiometricFailure.notAvailable {
      Output.error(
        "Biometric unlock is not active yet: enroll with 'biosim enroll', then run"
          + " 'vault biometry activate'. Until then the vault cannot be unlocked.")
      return 0
    } catch {
      // Anything else (a lockout) is for the activation itself to report.
    }
    do {
      let seal = try access.created(created).activateBiometry()
      Output.error("Biometric unlock activated (simulated \(BiometryType.displayName(seal.type))).")
      return 0
    } catch let thrown {
      guard let error = VaultError(thrown) else { throw thrown }
      let report = ExitStatus.report(error)
      Output.error(
        "vault: error: the vault was created but biometric unlock was not activated: "
          + report.message)
      // What to do first (set a passcode, enroll), then the activation.
      Output.error(
        "vault: hint: " + (report.hint.map { "\($0), then run" } ?? "run")
          + " 'vault biometry activate'")
      return report.code.rawValue
    }
  }
}
