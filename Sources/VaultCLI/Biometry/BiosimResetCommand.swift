import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim reset`.
struct BiosimResetCommand: VaultCommand {
  static let about = CommandAbout(
    "reset", "Erase the device: new device secret, no enrollment, no PIN counters.",
    discussion: """
      On a terminal it asks you to type 'erase' first, since every vault then needs its \
      recovery code on this device; --yes skips the question.
      """)

  @FlagParameter(Keys.yes) var yes

  func run(_ context: Context) throws -> Int32 {
    // On a terminal, erasing the device is confirmed first: every vault then needs its recovery
    // code on this device.
    if isatty(0) == 1, !yes, let terminal = context.terminal {
      terminal.say(
        "This erases the simulated device: a new device secret, nothing enrolled, no PIN"
          + " counters. Every vault then needs its recovery code here ('vault recover').\n")
      let answer = try terminal.readVisible(prompt: "Type 'erase' to go on: ")
      guard answer == "erase" else {
        throw Cancelled(why: "nothing was erased")
      }
    }
    try BiosimSupport.controls(context).reset()
    // An erased device keeps no session of any vault, and the agent holds none of them.
    AgentClient(environment: context.environment).forget(vaultID: nil, vaultPath: nil)
    try? FileManager.default.removeItem(atPath: context.environment.sessionDirectory)
    Output.error(
      "The device was erased: new device secret, nothing enrolled, every session ended. Each"
        + " vault needs 'vault recover' to set its PIN on this device.")
    return ExitCode.success.rawValue
  }
}
