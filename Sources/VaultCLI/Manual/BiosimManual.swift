/// The hand-written parts of `biosim(1)`: everything its command table does not say.
enum BiosimManual {
  static var text: ProgramManual {
    ProgramManual(
      summary: "control the simulated biometric sensor that vault uses",
      description: description, beforeExitStatus: [json, environment, files],
      exitStatus: exitStatus, afterExitStatus: [security, examples, seeAlso])
  }

  /// The codes `BiosimMain.run` returns.
  static let exitStatus: [(code: Int32, meaning: String)] = [
    (0, "Success."),
    (1, "Any other failure (I/O, permissions)."),
    (5, "Invalid value: an unknown type, availability, outcome or label, or a bad count."),
    (17, "The device-side state file is corrupt."),
    (64, "Usage error: unknown command or option, missing argument."),
  ]

  static let description: [ManualBlock] = [
    .paragraph(
      """
      The sensor answers the prompts of vault(1). On a terminal, vault asks for a key press \
      (Enter: a matching finger or face, `n`: a non-matching one, Ctrl-C: cancel); without one, \
      or to script a session, `biosim next` queues the answers, which are used first in, first \
      out.
      """),
    .paragraph(
      """
      The domain state, the opaque value vault seals when biometric unlock is activated, \
      changes with every enrollment change (`enroll`, `unenroll`, `hardware`), with \
      `os-upgrade` and with `reset`; adding a template and removing it again does not bring \
      the old value back.
      """),
  ]

  static let json = ManualSection(
    "JSON OUTPUT",
    [
      .paragraph(
        """
        `biosim status --json` prints one line: `type`, `simulated` (always true), \
        `availability`, `enrolled` (an array of `label` and `enrolled_at`), \
        `enrollment_generation`, `os_epoch`, `consecutive_failures`, `locked_out`, `queue` (the \
        queued answers) and `domain_state_prefix` (the first 8 bytes of the domain state in \
        hexadecimal, or null when nothing is enrolled).
        """)
    ])

  static let environment = ManualSection(
    "ENVIRONMENT",
    [
      .item(
        "XDG_STATE_HOME",
        [
          "Folder of the device-side state, `vault/device.json` under it. Default: `~/.local/state`."
        ]
      ),
      .item("HOME", ["The base of the default above."]),
    ])

  static let files = ManualSection(
    "FILES",
    [
      .item(
        "`~/.local/state/vault/device.json`",
        [
          """
          The simulated device, mode 0600: the sensor, the device secret and the PIN attempt \
          counters of every vault of the user.
          """
        ])
    ])

  static let security = ManualSection(
    "SECURITY",
    [
      .paragraph(
        """
        biosim is a test double, not a security boundary: anyone who runs as the user can change \
        the sensor, and so pass the biometric check. vault's protection is the PIN entangled with \
        the device secret; see vault(1).
        """),
      .paragraph(
        """
        `biosim reset` creates a new device secret. Every vault's PIN then stops working on this \
        machine until `vault recover` sets a new PIN with the vault's recovery code.
        """),
    ])

  static let examples = ManualSection(
    "EXAMPLES",
    [
      .paragraph("Enroll a finger, queue one match and unlock:"),
      .example([
        "$ biosim enroll --label right-index", "$ biosim next match",
        #"$ eval "$(vault unlock)""#,
      ]),
      .paragraph("Switch to Face ID, which wipes the enrollment, and fail twice:"),
      .example([
        "$ biosim hardware face-id", "$ biosim enroll", "$ biosim next no-match --count 2",
      ]),
    ])

  static let seeAlso = ManualSection("SEE ALSO", roff: ".BR vault (1),\n.BR vault (5)\n")
}
