import Glibc
import VaultFormat

/// The note a command says once, the first time it asked for the PIN on a terminal because no
/// agent held the vault: `vault unlock` asks once for every shell.
///
/// Once per user: the note leaves an empty marker, `unlock-hint-shown`, in the state folder.
enum UnlockHint {
  /// The marker's name in the state folder.
  static let markerName = "unlock-hint-shown"

  /// Says the note when `context`'s command asked for the PIN on its terminal (so no agent held
  /// the vault) and it was never said to this user; best effort, never a failure.
  static func afterCommand(_ context: Context) {
    guard context.askedOnTerminal, context.session == nil else { return }
    let marker = context.environment.stateDirectory + "/" + markerName
    guard access(marker, F_OK) != 0,
      (try? PrivateFiles.ensurePrivateDirectory(context.environment.stateDirectory)) != nil,
      (try? PrivateFiles.atomicWrite([], to: marker)) != nil
    else { return }
    Output.error(
      "vault: note: 'vault unlock' asks for the PIN once for every shell of yours, and the agent"
        + " holds the key until it locks (said once)")
  }
}
