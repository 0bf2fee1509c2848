/// The whole command line of `biosim`, the simulated biometric device, as one value.
public enum BiosimCommands {
  /// The program specification.
  public static let program: ProgramSpec = ProgramSpec(
    root: CommandSpec(
      "biosim", "Control the simulated biometric sensor that vault uses.",
      discussion: """
        biosim plays the device: hardware type, availability, enrolled fingers or faces, the \
        answers the sensor gives, lockout and OS upgrades, modelled on the iOS Simulator's Face \
        ID and Touch ID menu. Its state is shared by every vault of the user. It is a test \
        double, not a security boundary.
        """,
      subcommands: [
        CommandSpec(
          "status", "Show the sensor's state.", options: [Keys.json.spec],
          run: runs(BiosimCommandsRun.status)),
        CommandSpec(
          "hardware", "Choose the sensor type (changing it wipes the enrollment).",
          arguments: [Keys.sensorType.spec], run: runs(BiosimCommandsRun.hardware)),
        CommandSpec(
          "availability", "Make the sensor available, unavailable or disconnected.",
          arguments: [Keys.availability.spec], run: runs(BiosimCommandsRun.availability)),
        CommandSpec(
          "enroll", "Enroll a finger or face (the domain state changes).",
          options: [Keys.label.spec], run: runs(BiosimCommandsRun.enroll)),
        CommandSpec(
          "unenroll", "Remove one template, or all (the domain state changes).",
          options: [Keys.unenrollLabel.spec, Keys.all.spec], run: runs(BiosimCommandsRun.unenroll)),
        CommandSpec(
          "next", "Queue the sensor's next answers.",
          options: [Keys.outcomeCount.spec], arguments: [Keys.outcome.spec],
          run: runs(BiosimCommandsRun.next)),
        CommandSpec(
          "force-lockout", "Lock the sensor as after five failed matches elsewhere.",
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
