/// The whole command line of `biosim`, the simulated biometric device, as one value.
public enum BiosimCommands {
  /// The program specification.
  public static let program = ProgramSpec(
    root: CommandSpec(
      "biosim", "Control the simulated biometric sensor that vault uses.",
      discussion: """
        biosim plays the device: hardware type, availability, enrolled fingers or faces, the \
        answers the sensor gives, lockout and OS upgrades, modelled on the iOS Simulator's Face \
        ID and Touch ID menu. Its state is shared by every vault of the user. It is a test \
        double, not a security boundary.
        """,
      subcommands: [
        CommandSpec("status", "Show the sensor's state.", options: [VaultCommands.json]),
        CommandSpec(
          "hardware", "Choose the sensor type (changing it wipes the enrollment).",
          arguments: [
            ArgumentSpec(
              "TYPE", "none, touch-id, face-id or optic-id.",
              completion: .values(["none", "touch-id", "face-id", "optic-id"]))
          ]),
        CommandSpec(
          "availability", "Make the sensor available, unavailable or disconnected.",
          arguments: [
            ArgumentSpec(
              "STATE", "available, unavailable or disconnected.",
              completion: .values(["available", "unavailable", "disconnected"]))
          ]),
        CommandSpec(
          "enroll", "Enroll a finger or face (the domain state changes).",
          options: [
            .value(
              "label", "LABEL", "A name for the template (default finger-N, face-N or iris-N).")
          ]),
        CommandSpec(
          "unenroll", "Remove one template, or all (the domain state changes).",
          options: [
            .value("label", "LABEL", "The template to remove."),
            .flag("all", "Remove every template."),
          ]),
        CommandSpec(
          "next", "Queue the sensor's next answers.",
          options: [.value("count", "N", "Queue the answer N times (1-100, default 1).")],
          arguments: [
            ArgumentSpec(
              "OUTCOME", "match, no-match, cancel, system-cancel or timeout.",
              completion: .values(["match", "no-match", "cancel", "system-cancel", "timeout"]))
          ]),
        CommandSpec("force-lockout", "Lock the sensor as after five failed matches elsewhere."),
        CommandSpec("os-upgrade", "Simulate a major OS upgrade (the domain state changes)."),
        CommandSpec(
          "reset", "Erase the device: new device secret, no enrollment, no PIN counters."),
        CommandSpec(
          "help", "Show help for a command.",
          arguments: [
            ArgumentSpec("COMMAND", "The command to describe.", optional: true, variadic: true)
          ]),
      ]),
    globalOptions: [
      .flag("help", short: "h", "Show help for the command."),
      .flag("version", "Show the version."),
    ],
    version: VaultCommands.program.version
  ).completingHelp()
}
