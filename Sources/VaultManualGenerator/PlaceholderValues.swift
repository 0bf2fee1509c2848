import Biometry
import VaultAgent
import VaultCLI
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets
import VaultSync
import VaultTransfer

/// The values of each page's placeholders, read from the code so the pages cannot drift from it.
///
/// Each page must use every value provided for it, so a constant added here, or a new case of a
/// listed type (a subkey, a KDF profile, a domain label), fails the generator until the page says
/// something about it.
enum PlaceholderValues {
  /// `vault(1)`: its command table, EXIT STATUS, and the limits its prose quotes.
  static func vaultCommand() -> [String: Placeholder] {
    let delays = PINLimiter.delays.map { ExitStatus.duration(Int($0)) }
    let exitStatus = ExitStatus.table.map { ManualBlock.item("`\($0.code)`", [$0.meaning]) }
    return ManPage.commandTable(VaultCommands.program).merging(shared) { $1 }.merging([
      "exit-status": .blocks(exitStatus),
      "biometric-errors": .blocks(
        BiometricErrorTable.rows.map { row in
          ManualBlock.item(
            "`\(row.error.name)` (\(row.error.code))"
              + (row.error.android.map { "; Android \($0)" } ?? ""),
            ["Exit \(row.exit): \(row.message)", row.note])
        }),
      "strike-limit": .text("\(BiometricStrikes.limit)"),
      "sync-maximum-skew": .text("\(Int(VaultSync.maximumClockSkew))"),
      "max-handoffs": .text("\(Header.maximumHandoffs)"),
      "reuse-maximum": .text("\(VaultSettings.biometricReuse.range.upperBound)"),
      "pin-delays": .text(list(delays)),
      "pin-delay-last": .text(delays.last ?? ""),
      "session-idle": .text(ExitStatus.duration(Int(SessionLedger.defaultIdle))),
      "session-hard": .text(ExitStatus.duration(Int(SessionLedger.hardLimit))),
      "pinentry-timeout": .text("\(PinentryDialog.timeoutSeconds)"),
      "field-key-max-bytes": .text("\(EntryFields.maximumKeyBytes)"),
      "audit-min-length": .text("\(PasswordStrength.minimumLength)"),
      "audit-min-bits": .text("\(PasswordStrength.minimumBits)"),
      "audit-max-age": .text("\(EntryStore.passwordMaximumAgeDays)"),
      "word-list-size": .text("\(PasswordGenerator.wordListSize)"),
      "import-max-size": .text(ImportSourceFile.maximumText),
      "csv-max-columns": .text("\(CSVReader.maximumColumns)"),
      "csv-max-header": .text(CSVReader.maximumHeaderText),
      "json-max-depth": .text("\(GuardedJSON.maximumDepth)"),
      "export-passphrase-min": .text("\(ExportPassphrase.minimumLength)"),
      "export-passphrase-bits": .text("\(ExportPassphrase.minimumBits)"),
    ]) { $1 }
  }

  /// `biosim(1)`: its command table only.
  static func biosimCommand() -> [String: Placeholder] {
    ManPage.commandTable(BiosimCommands.program).merging([
      "answer-validity": .text("\(Int(SensorState.answerValidity))"),
      "touch-id-attempts": .text("\(BiometryType.touchID.attemptsPerEvaluation)"),
      "face-id-attempts": .text("\(BiometryType.faceID.attemptsPerEvaluation)"),
      "retry-limit": .text("\(SensorState.retryLimit)"),
      "apple-lockout": .text("\(SensorProfile.apple.permanentThreshold)"),
      "android-timed-every": .text("\(SensorProfile.timedEvery)"),
      "android-timed-seconds": .text("\(Int(SensorProfile.timedSeconds))"),
      "android-permanent": .text("\(SensorProfile.android.permanentThreshold)"),
      "touch-id-limit": .text("\(SensorState.enrollmentLimit(.touchID))"),
      "face-id-limit": .text("\(SensorState.enrollmentLimit(.faceID))"),
      "optic-id-limit": .text("\(SensorState.enrollmentLimit(.opticID))"),
      "maximum-reuse": .text("\(Int(SensorState.maximumReuse))"),
    ]) { $1 }
  }

  /// `vault(5)`: the format's constants, schema, subkeys and domain labels.
  static func format() -> [String: Placeholder] {
    var values = shared
    let text: [String: String] = [
      "format": "\(Header.currentFormat)",
      "application-id": "\(Vault.applicationID)",
      "application-id-hex": String(Vault.applicationID, radix: 16, uppercase: true),
      "schema-version": "\(Vault.schemaVersion)",
      "schema": schema(),
      "salt-bytes": "\(Salt.byteCount)",
      "key-bytes": "\(SymmetricKey.byteCount)",
      "policy-biometric": Policy.pinAndBiometry.rawValue,
      "policy-pin": Policy.pinOnly.rawValue,
      "kdf-min-opslimit": "\(KDFParameters.test.opsLimit)",
      "kdf-max-opslimit": "\(KDFParameters.maxOpsLimit)",
      "kdf-min-memlimit": "\(KDFParameters.test.memLimit)",
      "kdf-max-memlimit": "\(KDFParameters.maxMemLimit) (\(size(KDFParameters.maxMemLimit)))",
      "pin-min-length": "\(PIN.minimumLength)",
      "pin-max-bytes": "\(PIN.maximumByteCount)",
      "chunk-size": "\(EntryStore.chunkSize)",
      "page-size": "\(Vault.pageSize)",
      "sealed-box-overhead": "\(SealedBox.overhead)",
      "journal-max-size": size(UInt64(JournalStore.maximumByteCount)),
      "biometry-type-codes": BiometryType.allCases.filter { $0 != .none }
        .map { "\($0.rawValue) \($0.code)" }.joined(separator: ", "),
      "app-id": DomainState.vaultAppID,
      "session-idle-seconds": "\(Int(SessionLedger.defaultIdle))",
      "session-hard-seconds": "\(Int(SessionLedger.hardLimit))",
      "unix-path-limit": "\(AgentSocket.unixPathLimit)",
      "pin-max-in-flight": "\(PINAttempts.maximumInFlight)",
      "pin-in-flight-window": "\(Int(PINLimiter.inFlightWindow))",
      "pin-in-flight-wait": "\(Int(PINLimiter.inFlightWait))",
      "pin-delays-seconds": PINLimiter.delays.map { String(Int($0)) }.joined(separator: ", "),
      "pin-repeat-window": "\(Int(PINLimiter.repeatWindow))",
      "pin-repeat-lifetime": "\(Int(PINLimiter.repeatTagLifetime))",
      "recovery-alphabet": String(decoding: RecoveryCode.alphabet, as: UTF8.self),
      "recovery-check-symbols": "\(RecoveryCode.checkSymbolCount)",
      "recovery-groups": "\((RecoveryCode.symbolCount + RecoveryCode.checkSymbolCount) / 4)",
      "label-biosim-domain": quoted(DomainState.label),
      "export-magic": quoted(String(decoding: VaultExport.magic, as: UTF8.self)),
      "export-version": "\(VaultExport.version)",
      "export-header-bytes": "\(VaultExport.headerByteCount)",
      "export-message-overhead": "\(VaultExport.messageOverhead)",
      "export-piece": "\(VaultExport.pieceSize)",
      "export-max-content": "2^\(VaultExport.maximumContentBytes.trailingZeroBitCount) bytes",
      "export-passphrase-min": "\(ExportPassphrase.minimumLength)",
      "export-passphrase-bits": "\(ExportPassphrase.minimumBits)",
      "export-passphrase-max": "\(ExportPassphrase.maximumByteCount)",
    ]
    for (name, value) in text { values[name] = .text(value) }
    for profile in KDFParameters.userProfiles + [.test] {
      values["kdf-" + profile.profile] = .text(
        "opslimit \(profile.opsLimit), memlimit \(profile.memLimit) (\(size(profile.memLimit)))")
    }
    for subkey in Subkey.allCases {
      values["subkey-" + kebab(String(describing: subkey))] = .text(
        "subkey(\(subkey.id), \(quoted(subkey.context)))")
    }
    for label in DomainLabel.all {
      values[labelPlaceholder(label.rawValue)] = .text(quoted(label.rawValue))
    }
    values["max-devices"] = .text("\(Header.maximumDevices)")
    values["max-retired-writers"] = .text("\(Header.maximumRetiredWriters)")
    values["sync-maximum-skew"] = .text("\(Int(VaultSync.maximumClockSkew))")
    values["sync-maximum-record-file"] = .text("\(VaultSync.maximumRecordFile)")
    values["sync-maximum-state-file"] = .text("\(VaultSync.maximumStateFile)")
    values["max-name-bytes"] = .text("\(EntryName.maximumByteCount)")
    values["max-revoked-devices"] = .text("\(Header.maximumRevokedDevices)")
    values["max-rotations"] = .text("\(Header.maximumRotations)")
    values["max-handoffs"] = .text("\(Header.maximumHandoffs)")
    values["state-history"] = .text("\(Vault.keptStates)")
    values["record-kinds"] = .text(
      list(RecordKind.allCases.map { "\($0.rawValue) \(String(describing: $0))" }))
    values["revision-prefix"] = .text("\(EntryStore.revisionPrefix)")
    values["settings-record-id"] = .text(VaultSettings.recordID.hex)
    values["entry-changes"] = .text(list(EntryChange.allCases.map { quoted($0.rawValue) }))
    values["history-keep"] = .text("\(VaultSettings.historyKeep.defaultValue)")
    values["history-days"] = .text("\(VaultSettings.historyDays.defaultValue)")
    values["settings-values"] = .blocks(
      VaultSettings.keys.map {
        .item(
          "`\($0.name)`",
          [
            "\(SettingWords.meaning(of: $0)): \($0.range.lowerBound)"
              + " to \($0.range.upperBound), default \($0.defaultValue)."
          ])
      })
    values["domain-labels"] = .blocks(
      DomainLabel.all.map { .item(quoted($0.rawValue), [$0.separates]) })
    return values
  }

  /// The values both `vault(1)` and `vault(5)` quote.
  private static let shared: [String: Placeholder] = [
    "name-max-bytes": .text("\(EntryName.maximumByteCount)"),
    "pin-free-attempts": .text("\(PINLimiter.freeAttempts)"),
    "recovery-symbols": .text("\(RecoveryCode.symbolCount)"),
    "pin-min-new": .text("\(PIN.minimumNewLength)"),
    "stream-threshold": .text("\(EntryStore.streamThreshold)"),
  ]

  /// `label-keyslot` for `vault.keyslot.v1`, `label-record` for `vault.record.v2`,
  /// `label-journal-v2` for `vault.journal.v2` (whose stem a format-1 label shares);
  /// `label-biosim-domain` for `biosim.domain.v1`.
  static func labelPlaceholder(_ label: String) -> String {
    var words = label.split(separator: ".").map(String.init)
    if words.first == "vault" { words.removeFirst() }
    let version = words.last
    if version == "v1" { words.removeLast() }
    if version == "v2" {
      let stem = "vault." + words.dropLast().joined(separator: ".") + ".v1"
      if !DomainLabel.all.contains(where: { $0.rawValue == stem }) { words.removeLast() }
    }
    return "label-" + words.joined(separator: "-")
  }

  /// The schema's lines, a clause longer than an example line can be in the page (60 columns)
  /// broken before its `REFERENCES`.
  static func schema() -> String {
    Schema.v2.components(separatedBy: "\n").flatMap { line -> [String] in
      guard line.count > 60, let clause = line.range(of: " REFERENCES ") else { return [line] }
      let indent = String(line.prefix { $0 == " " })
      return [
        String(line[..<clause.lowerBound]),
        indent + "  " + String(line[line.index(after: clause.lowerBound)...]),
      ]
    }.joined(separator: "\n")
  }

  /// `1 min, 5 min and 1 h`.
  static func list(_ items: [String]) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
  }

  /// `64 MiB`, `8 KiB`, `4 GiB`.
  static func size(_ bytes: UInt64) -> String {
    if bytes >= 1 << 30 { return "\(bytes >> 30) GiB" }
    if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
    return "\(bytes >> 10) KiB"
  }

  /// `nameIndex` as `name-index`.
  static func kebab(_ name: String) -> String {
    name.reduce(into: "") { out, character in
      out += character.isUppercase ? "-" + character.lowercased() : String(character)
    }
  }

  /// The text in double quotes, as the page writes a string that stands for its ASCII bytes.
  private static func quoted(_ text: String) -> String { "\"" + text + "\"" }
}
