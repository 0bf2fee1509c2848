import Biometry
import VaultFormat

/// The whole command line of `biosim`, the simulated biometric device, as one value.
public enum BiosimCommands {
  /// The program specification.
  public static let program: ProgramSpec = ProgramSpec(
    root: CommandSpec(
      "biosim", "Control the simulated biometric sensor that vault uses.",
      discussion: """
        biosim plays the device: hardware type, availability, enrolled fingers or faces, the \
        device passcode, the answers the sensor gives, lockout, device unlocks and OS upgrades, \
        modelled on the iOS Simulator's Face ID and Touch ID menu. Its state is shared by every vault of the user. It is a test \
        double, not a security boundary.
        """,
      subcommands: [
        CommandSpec(
          "status", "Show the sensor's state.", options: [Keys.json.spec],
          run: runs(BiosimCommandsRun.status)),
        CommandSpec(
          "hardware", "Choose the sensor type (changing it wipes the enrollment).",
          discussion: """
            As a different device model: none, touch-id, face-id or optic-id. With --external \
            the sensor is removable (a keyboard with Touch ID), the only kind that can be \
            disconnected or not paired.
            """, options: [Keys.external.spec], arguments: [Keys.sensorType.spec],
          run: runs(BiosimCommandsRun.hardware)),
        CommandSpec(
          "availability", "Make the sensor available, unavailable, disconnected or not paired.",
          arguments: [Keys.availability.spec], run: runs(BiosimCommandsRun.availability)),
        CommandSpec(
          "enroll", "Enroll a finger, face or iris (the domain state changes).",
          discussion: """
            Needs a device passcode. Touch ID holds five fingers, Face ID one appearance and \
            one alternate, Optic ID one enrollment.
            """, options: [Keys.label.spec], run: runs(BiosimCommandsRun.enroll)),
        CommandSpec(
          "unenroll", "Remove one template, or all (the domain state changes).",
          options: [Keys.unenrollLabel.spec, Keys.all.spec], run: runs(BiosimCommandsRun.unenroll)),
        CommandSpec(
          "passcode", "Set or remove the device passcode.",
          discussion: """
            Biometry needs a passcode: without one the preflight fails with passcodeNotSet \
            (LAError -5). Clearing it deletes every keychain item bound to it, so an activated \
            biometric unlock is disabled at its next use, and wipes the enrollment unless \
            --keep-enrollment.
            """, options: [Keys.keepEnrollment.spec], arguments: [Keys.passcodeAction.spec],
          run: runs(BiosimCommandsRun.passcode)),
        CommandSpec(
          "profile", "Follow Apple's or Android's lockout rules.",
          discussion: """
            apple: five consecutive failed matches lock biometry until the PIN. android: every \
            fifth locks it for 30 seconds (ERROR_LOCKOUT), the twentieth until the PIN \
            (ERROR_LOCKOUT_PERMANENT). The failure count starts over.
            """, arguments: [Keys.profile.spec], run: runs(BiosimCommandsRun.profile)),
        CommandSpec(
          "next", "Queue the sensor's next answers, or drop them with --clear.",
          discussion: """
            Answers are taken first in, first out by the prompts that follow, each within \
            \(Int(SensorState.answerValidity)) seconds of being queued; older ones are dropped; \
            standard error says what was queued. fallback answers only a prompt that shows the fallback button (after a failed match: \
            one on Touch ID, two on Face ID and Optic ID).
            """, options: [Keys.outcomeCount.spec, Keys.clearQueue.spec],
          arguments: [Keys.outcome.spec], run: runs(BiosimCommandsRun.next)),
        CommandSpec(
          "unlock-device",
          "Unlock the device with a matching finger, face or iris at its lock screen.",
          discussion: """
            The anchor of the reuse window (touchIDAuthenticationAllowableReuseDuration): a \
            vault whose biometric_reuse_seconds setting is above 0 accepts it for 'vault \
            unlock' that many seconds, at most \(Int(SensorState.maximumReuse)).
            """, run: runs(BiosimCommandsRun.unlockDevice)),
        CommandSpec(
          "credential-verified", "Enter the device passcode at the lock screen (ends a lockout).",
          run: runs(BiosimCommandsRun.credentialVerified)),
        CommandSpec(
          "force-lockout", "Lock the sensor as after too many failed matches elsewhere.",
          run: runs(BiosimCommandsRun.forceLockout)),
        CommandSpec(
          "os-upgrade", "Simulate a major OS upgrade (the domain state changes).",
          run: runs(BiosimCommandsRun.osUpgrade)),
        CommandSpec(
          "reset", "Erase the device: new device secret, no enrollment, no PIN counters.",
          discussion: """
            On a terminal it asks you to type 'erase' first, since every vault then needs its \
            recovery code on this device; --yes skips the question.
            """, options: [Keys.yes.spec], run: runs(BiosimCommandsRun.reset)),
        CommandSpec(
          "help", "Show help for a command.", arguments: [Keys.command.spec],
          run: { try HelpCommand.run($0, program: BiosimCommands.program) }),
      ]),
    globalOptions: [Keys.help.spec, Keys.version.spec],
    version: VaultCommands.program.version
  ).completingHelp()
}
