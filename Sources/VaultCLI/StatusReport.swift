import Biometry
import VaultCore

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
  var session: SessionStore.Expiry?
  var sessionGiven: Bool
  /// What the unlock agent holds for this vault: seconds before its idle timeout and its hard
  /// limit; nil when it does not hold it (or no agent runs).
  var agent: SessionStore.Expiry? = nil
  var boundHere: Bool
  var guessSeconds: Double?
  var shortPIN: Bool
  var headerVerified: Bool

  /// - Throws: `VaultError.integrity` or `.storage` when the device state cannot be read: a
  ///   broken device state is reported, never shown as "nothing enrolled, no delay".
  static func gather(_ context: Context) throws -> StatusReport {
    let device = try context.deviceStore.read()
    let token = context.environment.variables["VAULT_SESSION"] ?? ""
    /// The session's expiry when it is valid, and its key still opens the header (a session
    /// from before a `vault rekey` does not).
    func expiry(_ vaultID: VaultID, verify vault: Vault? = nil) -> SessionStore.Expiry? {
      guard !token.isEmpty,
        let opened = try? SessionStore(environment: context.environment).open(
          token: token, vaultID: vaultID, renew: false)
      else { return nil }
      if let vault, (try? vault.verifyHeader(masterKey: opened.masterKey)) == nil { return nil }
      return opened.expiry
    }
    switch try Vault.openAny(path: context.vaultPath, environment: context.environment) {
    case .current(let vault):
      var report = StatusReport(
        path: vault.path, format: vault.header.format, policy: vault.header.policy,
        kdf: vault.header.kdf, sensor: try device.sensorState(),
        biometry: VaultAccess.biometryStatus(of: vault, device: device),
        pinFailures: vault.limiter.failures(device), pinDelay: vault.limiter.currentDelay(device),
        session: expiry(vault.vaultID, verify: vault), sessionGiven: !token.isEmpty,
        boundHere: vault.isBound(to: device.deviceSecret),
        guessSeconds: device.guessSeconds[vault.vaultID.hex],
        shortPIN: device.shortPINs.contains(vault.vaultID.hex),
        headerVerified: vault.headerIsAuthenticatedHere(device))
      report.agent = agentExpiry(context, vault.vaultID)
      return report
    case .formatOne(let old):
      // Release 0.1.0's vault, upgraded at its next unlock: shown from its own header.
      return StatusReport(
        path: old.path, format: old.header.format, policy: old.header.policy,
        kdf: old.header.kdf, sensor: try device.sensorState(),
        biometry: old.biometryStatus(device),
        pinFailures: old.limiter.failures(device), pinDelay: old.limiter.currentDelay(device),
        session: expiry(old.vaultID), sessionGiven: !token.isEmpty,
        boundHere: old.isBound(to: device.deviceSecret),
        guessSeconds: device.guessSeconds[old.vaultID.hex],
        shortPIN: device.shortPINs.contains(old.vaultID.hex), headerVerified: false)
    }
  }

  /// What the agent holds for `vaultID` at the context's vault path, without unlocking.
  static func agentExpiry(_ context: Context, _ vaultID: VaultID) -> SessionStore.Expiry? {
    guard
      let held = try? AgentClient(environment: context.environment).status(
        vaultPath: context.vaultPath),
      held.vaultID == vaultID
    else { return nil }
    return SessionStore.Expiry(idle: held.idle, hard: held.hard)
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
    case .active(let since):
      lines.append("biometric unlock: active since \(Output.printable(since))")
    case .disabled(let since, let reason):
      lines.append(
        "biometric unlock: DISABLED since \(Output.printable(since)): \(Output.printable(reason));"
          + " run 'vault biometry activate'")
    case .notActivated:
      lines.append("biometric unlock: not activated; run 'vault biometry activate'")
    case .off:
      lines.append("biometric unlock: off (PIN-only vault)")
    }
    lines.append(
      "sensor lockout:   "
        + (sensor.lockedOut ? "yes: enter your PIN to re-enable biometrics" : "no")
        + " (\(sensor.consecutiveFailures) consecutive failed matches)")
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
      ("sensor", sensorJSON),
    ])
  }

  var sensorJSON: JSONOutput {
    .object([
      ("type", .string(sensor.hardware)),
      ("simulated", .bool(true)),
      ("availability", .string(sensor.availability)),
      ("enrolled", .number(sensor.enrolled.count)),
      ("locked_out", .bool(sensor.lockedOut)),
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
