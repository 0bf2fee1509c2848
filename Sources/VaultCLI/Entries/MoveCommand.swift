import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault mv`.
struct MoveCommand: VaultCommand {
  static let about = CommandAbout(
    "mv", aliases: ["move", "rename"], "Rename an entry.")

  @FlagParameter(Keys.moveForce) var moveForce
  @ArgumentParameter(Keys.old) var old
  @ArgumentParameter(Keys.new) var new

  func run(_ context: Context) throws -> Int32 {
    try context.open(.use(reason: "rename '\(old)'")).entries.move(
      old, to: new, overwrite: moveForce)
    return ExitCode.success.rawValue
  }
}
