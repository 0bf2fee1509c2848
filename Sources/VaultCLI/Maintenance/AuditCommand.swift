import VaultCore
import VaultFormat
import VaultSecrets

/// `vault audit [PREFIX] [--json]`: checks every password (first line) offline, prints each
/// problem, and exits 1 when there is one.
struct AuditCommand: VaultCommand {
  static let about = CommandAbout(
    "audit", "Check every password (first line) offline: reused, short, weak or old.",
    discussion: """
      Reads the first line of every entry (under PREFIX) and prints NAME: PROBLEM for each \
      problem found: reused (the same first line as other entries anywhere in the vault, \
      compared by a keyed \
      BLAKE2b under a key drawn for this run, never printed), short (fewer than \
      \(PasswordStrength.minimumLength) characters), weak (fewer than \
      \(PasswordStrength.minimumBits) estimated bits; see AUDIT in vault(1)), or old (not \
      changed for \(EntryStore.passwordMaximumAgeDays) days, from the entry's kept history). \
      Nothing leaves the machine. Exits 1 when a problem was found, 0 when none. Every \
      entry's first line is taken as a password, so give a PREFIX to leave notes out; in a \
      session guarded entries are left out, and content that is not text is skipped.
      """)

  @FlagParameter(Keys.json) var json
  @OptionalArgument(Keys.auditPrefix) var prefix

  func run(_ context: Context) throws -> Int32 {
    let prefix = self.prefix ?? ""
    let unlocked = try context.open(.use(reason: "audit passwords"))
    let report = try unlocked.entries.auditPasswords(
      prefix: prefix, now: context.environment.clock.wallNow,
      includeGuarded: !unlocked.source.withholdsGuarded)
    if json {
      let rows = report.findings.map { finding in
        JSONOutput.object([
          ("name", .string(finding.name)), ("problems", .array(finding.problems.map(Self.json))),
        ])
      }
      Output.print(JSONOutput.array(rows).rendered + "\n")
    } else {
      for finding in report.findings {
        for problem in finding.problems {
          Output.print("\(Output.printable(finding.name)): \(Self.text(problem))\n")
        }
      }
    }
    let entries = report.findings.count
    Output.error(
      "Checked \(report.checked) password\(report.checked == 1 ? "" : "s"): "
        + (entries == 0
          ? "no problem found."
          : "\(entries) entr\(entries == 1 ? "y has" : "ies have") a problem."))
    if report.skippedNoPassword > 0 {
      let count = report.skippedNoPassword
      Output.error(
        "vault: note: \(count) entr\(count == 1 ? "y has" : "ies have") no password to check (an"
          + " empty first line, content that is not text, or a large content of more than 1 MiB)")
    }
    if report.skippedGuarded > 0 {
      Output.error(
        "vault: note: \(report.skippedGuarded) guarded entr\(report.skippedGuarded == 1 ? "y was" : "ies were")"
          + " left out; run 'vault audit' \(unlocked.source.bypass) to check them too")
    }
    return entries == 0 ? ExitCode.success.rawValue : ExitCode.failure.rawValue
  }

  static func text(_ problem: PasswordFinding.Problem) -> String {
    switch problem {
    case .reused(let others):
      "reused: the same password as "
        + others.map { "'\(Output.printable($0))'" }.joined(
          separator: ", ")
    case .short(let length):
      "short: \(length) character\(length == 1 ? "" : "s") (fewer than"
        + " \(PasswordStrength.minimumLength))"
    case .weak(let bits):
      "weak: about \(bits) bits (fewer than \(PasswordStrength.minimumBits))"
    case .old(let since, let days, let atLeast):
      "old: not changed since \(atLeast ? "at least " : "")\(since.prefix(10)) (\(days) days)"
    }
  }

  static func json(_ problem: PasswordFinding.Problem) -> JSONOutput {
    switch problem {
    case .reused(let others):
      .object([("problem", .string("reused")), ("with", .array(others.map { .string($0) }))])
    case .short(let length):
      .object([("problem", .string("short")), ("length", .number(length))])
    case .weak(let bits):
      .object([("problem", .string("weak")), ("bits", .number(bits))])
    case .old(let since, let days, let atLeast):
      .object([
        ("problem", .string("old")), ("since", .string(since)), ("days", .number(days)),
        ("at_least", .bool(atLeast)),
      ])
    }
  }
}
