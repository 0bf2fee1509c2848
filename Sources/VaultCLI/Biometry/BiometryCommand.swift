/// `vault biometry`: the group of the biometric-unlock commands; it does not run alone.
struct BiometryCommand: VaultCommand {
  static let about = CommandAbout(
    "biometry", aliases: ["bio"], "Activate, deactivate or inspect biometric unlock.",
    groupOnly: true)

  static let subcommands: [any VaultCommand.Type] = [
    BiometryActivateCommand.self, BiometryDeactivateCommand.self, BiometryStatusCommand.self,
  ]
}
