import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `init`, `passwd`, `recover`, `status`.
enum VaultCommandsRun {
  static func initialize(_ context: Context) throws -> Int32 {
    let profile = try context.value(Keys.kdf) ?? .moderate
    // The minimum cost protects nothing: only the test suite may choose it, explicitly.
    if profile == .test && context.environment.variables[KDFProfile.testSwitch] != "1" {
      throw UsageError(
        message: "invalid value 'test' for --kdf (\(KDFProfile.choiceList))", path: ["init"])
    }
    let kdf = profile.parameters
    let path = context.vaultPath
    if FileManager.default.fileExists(atPath: path) { throw VaultError.vaultExists(path) }
    let biometric = !context.flag(Keys.noBiometry)
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

  static func passwd(_ context: Context) throws {
    let unlocked = try context.open(.administer(reason: "change the PIN"))
    let newPIN = try context.readNewPIN(replacing: true)
    let change = try unlocked.changePIN(to: newPIN)
    Output.error("PIN changed; every session was revoked.")
    Output.error(GuessCost.line(for: newPIN, seconds: change.guessSeconds))
  }

  /// `vault recover`; the vault it unlocked, for a command that goes on with it (`sync clone`).
  @discardableResult
  static func recover(_ context: Context) throws -> UnlockedVault {
    let unlocked = try context.open(.recover)
    let newPIN = try context.readNewPIN()
    let change = try unlocked.changePIN(to: newPIN)
    Output.error("New PIN set for this machine; every session was revoked.")
    Output.error(GuessCost.line(for: newPIN, seconds: change.guessSeconds))
    // A seal made on another device can never match this sensor: said now, not at unlock.
    if change.disabledForeignSeal {
      Output.error(
        "Biometric unlock was sealed on another device; activate it here with"
          + " 'vault biometry activate'.")
    }
    return unlocked
  }

  static func status(_ context: Context) throws -> Int32 {
    if context.flag(Keys.check) {
      return unlockedHere(context) ? ExitCode.success.rawValue : ExitCode.locked.rawValue
    }
    let info = try StatusReport.gather(context)
    Output.print(context.flag(Keys.json) ? info.json.rendered + "\n" : info.text)
    return ExitCode.success.rawValue
  }

  /// `status --check`: the agent holds the vault, or `VAULT_SESSION` is a valid session of it
  /// whose key opens its header; nothing is unlocked, renewed or printed.
  private static func unlockedHere(_ context: Context) -> Bool {
    guard let vault = try? context.openVault() else { return false }
    if StatusReport.agentExpiry(context, vault.vaultID) != nil { return true }
    guard let token = context.sessionToken, !token.isEmpty,
      let opened = try? SessionStore(environment: context.environment).open(
        token: token, vaultID: vault.vaultID, renew: false)
    else { return false }
    return (try? vault.verifyHeader(masterKey: opened.masterKey)) != nil
  }
}
