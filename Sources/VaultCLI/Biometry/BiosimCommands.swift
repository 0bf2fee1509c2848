import Biometry
import VaultFormat

/// The whole command line of `biosim`, the simulated biometric device, as one value.
public enum BiosimCommands {
  /// The program specification.
  public static let program: ProgramSpec = ProgramSpec(
    root: BiosimRootCommand.spec,
    globalOptions: [Keys.help.spec, Keys.version.spec],
    version: VaultCommands.program.version
  ).completingHelp()
}

/// `biosim`: the program's root, a group whose subcommands are every control, in the order
/// help lists them.
struct BiosimRootCommand: VaultCommand {
  static let about = CommandAbout(
    "biosim", "Control the simulated biometric sensor that vault uses.",
    discussion: """
      biosim plays the device: hardware type, availability, enrolled fingers or faces, the \
      device passcode, the answers the sensor gives, lockout, device unlocks and OS upgrades, \
      modelled on the iOS Simulator's Face ID and Touch ID menu. Its state is shared by every vault of the user. It is a test \
      double, not a security boundary.
      """, groupOnly: true)

  static let subcommands: [any VaultCommand.Type] = [
    BiosimStatusCommand.self, BiosimHardwareCommand.self, BiosimAvailabilityCommand.self,
    BiosimEnrollCommand.self, BiosimUnenrollCommand.self, BiosimPasscodeCommand.self,
    BiosimProfileCommand.self, BiosimNextCommand.self, BiosimUnlockDeviceCommand.self,
    BiosimCredentialVerifiedCommand.self, BiosimForceLockoutCommand.self,
    BiosimOSUpgradeCommand.self, BiosimResetCommand.self, BiosimHelpCommand.self,
  ]
}

/// `biosim help [COMMAND...]`.
struct BiosimHelpCommand: HelpCommand {
  static let about = helpAbout
  static var program: ProgramSpec { BiosimCommands.program }

  @VariadicArgument(Keys.command) var words
}
