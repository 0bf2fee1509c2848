import Biometry
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// What `vault status` and `vault biometry status` show, gathered without unlocking.
struct StatusReport {
  var path: String
  var format: Int
  var policy: Policy
  var kdf: KDFParameters
  var sensor: SensorState
  var biometry: BiometryStatus
  var pinFailures: Int
  var pinDelay: Int
  var session: AgentClient.Expiry?
  var sessionGiven: Bool
  /// What the unlock agent holds for this vault: seconds before its idle timeout and its hard
  /// limit; nil when it does not hold it (or no agent runs).
  var agent: AgentClient.Expiry? = nil
  var boundHere: Bool
  /// What the sensor's preflight (`canEvaluatePolicy`) reports now: nil when biometry can be
  /// evaluated.
  var preflight: LAError? = nil
  /// Whether the sensor's domain state now equals the one sealed here (from the device state's
  /// digest); nil when unknown (nothing sealed here, or sealed before release 0.9.0 and not
  /// checked since).
  var domainMatches: Bool? = nil
  /// True when the seal is bound to the device passcode and its keychain item is gone.
  var passcodeRemoved = false
  /// This vault's failed matches within 24 hours, and whether they require the recovery code.
  var strikes = 0
  var recoveryRequired = false
  var guessSeconds: Double?
  var shortPIN: Bool
  var headerVerified: Bool

  /// - Throws: `VaultError.integrity` or `.storage` when the device state cannot be read: a
  ///   broken device state is reported, never shown as "nothing enrolled, no delay".
  static func gather(_ context: Context) throws -> StatusReport {
    let device = try context.deviceStore.read()
    let token = context.environment.variables["VAULT_SESSION"] ?? ""
    /// The session's expiry while the agent its token names holds its grant.
    func expiry(_ vaultID: VaultID) -> AgentClient.Expiry? { sessionExpiry(context, vaultID) }
    switch try Vault.openAny(path: context.vaultPath, environment: context.environment) {
    case .current(let vault):
      var report = StatusReport(
        path: vault.path, format: vault.header.format, policy: vault.policy,
        kdf: vault.header.kdf, sensor: try device.sensorState(),
        biometry: VaultAccess.biometryStatus(of: vault, device: device),
        pinFailures: vault.limiter.failures(device), pinDelay: vault.limiter.currentDelay(device),
        session: expiry(vault.vaultID), sessionGiven: !token.isEmpty,
        boundHere: vault.isBound(to: device.deviceSecret),
        guessSeconds: device.guessSeconds[vault.vaultID.hex],
        shortPIN: device.shortPINs.contains(vault.vaultID.hex),
        headerVerified: vault.headerIsAuthenticatedHere(device))
      report.agent = agentExpiry(context, vault.vaultID)
      try report.checkSensor(context, device: device, vaultID: vault.vaultID)
      return report
    case .formatOne(let old):
      // Release 0.1.0's vault, upgraded at its next unlock: shown from its own header.
      var report = StatusReport(
        path: old.path, format: old.header.format, policy: old.header.policy,
        kdf: old.header.kdf, sensor: try device.sensorState(),
        biometry: old.biometryStatus(device),
        pinFailures: old.limiter.failures(device), pinDelay: old.limiter.currentDelay(device),
        session: expiry(old.vaultID), sessionGiven: !token.isEmpty,
        boundHere: old.isBound(to: device.deviceSecret),
        guessSeconds: device.guessSeconds[old.vaultID.hex],
        shortPIN: device.shortPINs.contains(old.vaultID.hex), headerVerified: false)
      try report.checkSensor(context, device: device, vaultID: old.vaultID)
      return report
    }
  }

  /// The sensor's preflight now, and what the device state tells of this vault's seal and
  /// failed matches: all without the key.
  mutating func checkSensor(_ context: Context, device: DeviceState, vaultID: VaultID) throws {
    let clock = context.environment.clock
    sensor = try device.sensorState(clock: clock)
    let probe = SimulatedContext(
      store: context.deviceStore, clock: clock, appID: DomainState.vaultAppID, prompter: nil)
    do {
      try probe.canEvaluatePolicy()
    } catch let error as LAError {
      preflight = error
    }
    let strikeRecord = device.biometricStrikes[vaultID.hex]
    strikes = strikeRecord?.recent(at: clock.wallNow) ?? 0
    recoveryRequired = strikeRecord?.recoveryRequiredSince != nil
    guard case .active = biometry, boundHere, let sealed = device.sealedDomains[vaultID.hex]
    else { return }
    if sealed.passcodeBound, !sensor.holdsKeychainItem("vault:" + vaultID.hex) {
      passcodeRemoved = true
    }
    if let now = DomainState.compute(
      sensor: sensor, deviceSecret: device.deviceSecret, appID: DomainState.vaultAppID)
    {
      let digest = SealedDomainDigest.of(now, vaultID: vaultID, deviceSecret: device.deviceSecret)
      domainMatches = constantTimeEqual(Array(digest.utf8), Array(sealed.digest.utf8))
    } else {
      domainMatches = false
    }
  }

  /// What the agent holds for `vaultID` at the context's vault path (its plain hold), without
  /// unlocking.
  static func agentExpiry(_ context: Context, _ vaultID: VaultID) -> AgentClient.Expiry? {
    guard
      let held = try? AgentClient(environment: context.environment).status(
        vaultPath: context.vaultPath),
      held.vaultID == vaultID
    else { return nil }
    return held.expiry
  }

  /// The timers of the grant of the session in `VAULT_SESSION` for `vaultID` at the context's
  /// vault path, in the agent its token names; nil without a token of this release or a live
  /// grant.
  static func sessionExpiry(_ context: Context, _ vaultID: VaultID) -> AgentClient.Expiry? {
    guard let text = context.sessionToken, case .token(let token) = SessionToken.parse(text),
      let held = try? AgentClient(environment: context.environment).status(
        vaultPath: context.vaultPath, token: token),
      held.vaultID == vaultID
    else { return nil }
    return held.expiry
  }

  var biometricPolicy: Bool { policy.requiresBiometry }

  /// `off`, `not-activated`, `active` or `disabled`, as `--json` shows it.
  var biometryState: String {
    switch biometry {
    case .off: "off"
    case .notActivated: "not-activated"
    case .active: "active"
    case .disabled: "disabled"
    }
  }

  var biometrySince: String? {
    switch biometry {
    case .active(let since), .disabled(let since, _): since
    case .off, .notActivated: nil
    }
  }

  var biometryReason: String? {
    if case .disabled(_, let reason) = biometry { return reason }
    return nil
  }

  // Output.printable: the header is not authenticated before an unlock, and the device state is
  // a file the user can write, so none of their words reach the terminal raw.
  var sensorName: String {
    (BiometryType(rawValue: sensor.hardware)?.displayName ?? Output.printable(sensor.hardware))
      + " (simulated)"
  }

  /// What the next unlock does with a seal that no longer holds.
  ///
  /// A preflight error refuses it before the PIN (exit 16) and changes nothing, except a lockout
  /// (which the PIN ends) and an emptied enrollment (on which the unlock disables biometric
  /// unlock before the PIN).
  var nextUnlock: String {
    guard let refusal = preflight, refusal != .biometryLockout, refusal != .biometryNotEnrolled
    else { return "biometric unlock will be disabled at the next unlock" }
    return
      "an unlock is refused now (exit \(ExitCode.biometryUnavailable.rawValue), \(refusal.words))"
      + " and changes nothing; the first one the sensor allows disables biometric unlock"
  }

  var text: String {
    var lines: [String] = []
    lines.append("vault:            \(path)")
    lines.append(
      "format:           \(format)"
        + (format < Header.currentFormat
          ? " (upgraded to format \(Header.currentFormat) at the next unlock with the PIN)" : ""))
    if !headerVerified {
      lines.append(
        "header:           not verified on this device since it last changed; what follows is"
          + " unauthenticated until an unlock")
    }
    if !boundHere {
      lines.append(
        "device:           the PIN is bound to another device (a copied vault, or a reset"
          + " device); run 'vault recover'")
    }
    lines.append(
      "policy:           "
        + (biometricPolicy ? "PIN + biometry" : "PIN only (no biometric check)"))
    let kdfNote = kdf == .test ? ", TEST ONLY: no brute-force protection" : ""
    lines.append(
      "kdf:              Argon2id \(kdf.profile) (\(kdf.opsLimit) pass\(kdf.opsLimit == 1 ? "" : "es"), "
        + (kdf.memLimit >= 1 << 20 ? "\(kdf.memLimit >> 20) MiB" : "\(kdf.memLimit >> 10) KiB")
        + "\(kdfNote))")
    lines.append(
      "sensor:           \(sensorName), \(Output.printable(sensor.availability)),"
        + " \(sensor.enrolled.count) enrolled")
    switch biometry {
    case _ where biometricPolicy && !boundHere:
      // A reset device, or a copied vault: this device has no record of its own yet.
      lines.append(
        "biometric unlock: not set up on this device (the PIN is bound to another device); after"
          + " 'vault recover', run 'vault biometry activate'")
    case .active(let since) where passcodeRemoved:
      lines.append(
        "biometric unlock: active since \(Output.printable(since)), but the device passcode was"
          + " removed since; \(nextUnlock)")
    case .active(let since) where domainMatches == false:
      lines.append(
        "biometric unlock: active since \(Output.printable(since)), but the enrollment changed"
          + " since activation; \(nextUnlock)")
    case .active(let since):
      lines.append("biometric unlock: active since \(Output.printable(since))")
    case .disabled(let since, let reason):
      lines.append(
        "biometric unlock: DISABLED since \(Output.printable(since)): \(Output.printable(reason));"
          + " \(ReactivationSteps(sensor: sensor).activation)")
    case .notActivated:
      lines.append(
        "biometric unlock: not activated; \(ReactivationSteps(sensor: sensor).activation)")
    case .off:
      lines.append("biometric unlock: off (PIN-only vault)")
    }
    if biometricPolicy {
      lines.append(
        "sensor check:     "
          + (preflight.map { "\($0.words) (LAError \($0.code))" } ?? "available"))
    }
    // Under the vault's own lockout the PIN no longer helps: the sensor's line does not offer it.
    let sensorAdvice = recoveryRequired ? "yes" : "yes: enter your PIN to re-enable biometrics"
    lines.append(
      "sensor lockout:   "
        + (sensor.isLockedOut ? sensorAdvice : "no")
        + " (\(sensor.consecutiveFailures) consecutive failed matches)")
    if recoveryRequired {
      lines.append(
        "vault lockout:    only the recovery code helps now: run 'vault recover' (\(BiometricStrikes.limit)"
          + " failed matches within 24 h; the PIN no longer ends the lockout)")
    } else if biometricPolicy {
      lines.append(
        "vault lockout:    \(strikes) of \(BiometricStrikes.limit) failed matches within 24 h"
          + " before the recovery code is needed")
    }
    lines.append(
      "PIN:              "
        + (pinDelay > 0
          ? "next attempt in \(ExitStatus.duration(pinDelay))"
          : "no delay") + " (\(pinFailures) consecutive wrong)")
    lines.append(
      "PIN guess cost:   "
        + (guessSeconds.map {
          "\(NumberText.fixed($0, places: 2)) s of one core per guess here (with both the vault and"
            + " the device state)"
        } ?? "not measured on this device yet"))
    if shortPIN {
      lines.append(
        "warning:          the PIN is shorter than \(PIN.minimumNewLength) characters; set a"
          + " longer one with 'vault passwd'")
    }
    if let agent {
      lines.append(
        "agent:            holds the vault; locks in \(ExitStatus.duration(min(agent.idle, agent.hard)))"
          + " unless used (ends in \(ExitStatus.duration(agent.hard)) at most)")
    } else {
      lines.append("agent:            does not hold the vault")
    }
    if let session {
      lines.append(
        "session:          valid; idle expiry in \(ExitStatus.duration(session.idle)), "
          + "ends in \(ExitStatus.duration(session.hard)) at most")
    } else {
      lines.append("session:          " + (sessionGiven ? "invalid or expired" : "none"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  var biometryJSON: JSONOutput {
    .object([
      ("policy", .string(policy.rawValue)),
      ("state", .string(biometryState)),
      ("since", biometrySince.map { .string($0) } ?? .null),
      ("reason", biometryReason.map { .string($0) } ?? .null),
      ("preflight", .string(preflight?.name ?? "available")),
      ("preflight_code", preflight.map { .number($0.code) } ?? .null),
      ("biometry_type", .string(sensor.biometryType.rawValue)),
      ("domain_state_matches", domainMatches.map { .bool($0) } ?? .null),
      ("passcode_removed", .bool(passcodeRemoved)),
      ("failed_matches_24h", .number(strikes)),
      ("recovery_required", .bool(recoveryRequired)),
      ("sensor", sensorJSON),
    ])
  }

  var sensorJSON: JSONOutput {
    .object([
      ("type", .string(sensor.hardware)),
      ("simulated", .bool(true)),
      ("availability", .string(sensor.availability)),
      ("enrolled", .number(sensor.enrolled.count)),
      ("passcode_set", .bool(sensor.passcodeSet)),
      ("locked_out", .bool(sensor.isLockedOut)),
      ("consecutive_failures", .number(sensor.consecutiveFailures)),
    ])
  }

  var json: JSONOutput {
    .object([
      ("path", .string(path)),
      ("header_verified_here", .bool(headerVerified)),
      ("format", .number(format)),
      ("bound_to_this_device", .bool(boundHere)),
      ("policy", .string(policy.rawValue)),
      (
        "kdf",
        .object([
          ("profile", .string(kdf.profile)), ("opslimit", .number(Int(kdf.opsLimit))),
          ("memlimit", .number(Int(kdf.memLimit))),
        ])
      ),
      ("biometry", biometryJSON),
      (
        "pin",
        .object([
          ("consecutive_failures", .number(pinFailures)), ("delay_seconds", .number(pinDelay)),
          ("guess_seconds", guessSeconds.map { .string(NumberText.fixed($0, places: 3)) } ?? .null),
          ("shorter_than_minimum", .bool(shortPIN)),
        ])
      ),
      (
        "agent",
        agent.map {
          .object([("idle_seconds", .number($0.idle)), ("hard_seconds", .number($0.hard))])
        } ?? .null
      ),
      (
        "session",
        session.map {
          .object([("idle_seconds", .number($0.idle)), ("hard_seconds", .number($0.hard))])
        } ?? .null
      ),
    ])
  }
}
