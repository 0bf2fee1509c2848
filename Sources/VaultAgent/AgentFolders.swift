import Glibc
import VaultFormat

/// Every folder an agent of this user may be listening in, for what must reach them all
/// (`AgentClient.forget`: `vault lock`, a PIN change, a rotation…): the usual ones
/// (`AgentSocket.everyFolder`), the one `VAULT_SESSION`'s token names, and each folder an agent
/// was started in, recorded in `$XDG_STATE_HOME/vault/agent-folders` (one absolute path a
/// line, mode 0600; paths only, never a key or a token).
public enum AgentFolders {
  /// The record's name in the state folder.
  static let fileName = "agent-folders"
  /// The most folders kept, newest last.
  static let limit = 64

  /// The record of `environment`.
  static func file(_ environment: VaultEnvironment) -> String {
    environment.stateDirectory + "/" + fileName
  }

  /// The folders recorded, in order.
  static func recorded(_ environment: VaultEnvironment) -> [String] {
    guard (try? FileSafety.checkPrivateFolder(environment.stateDirectory)) != nil,
      let bytes = try? PrivateFiles.read(file(environment))
    else { return [] }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
      .filter { $0.hasPrefix("/") }
  }

  /// Records `folder` as one an agent was started in; best effort (a record that cannot be
  /// written only means a later lock does not look there).
  public static func record(_ folder: String, environment: VaultEnvironment) {
    var folders = recorded(environment).filter { $0 != folder }
    folders.append(folder)
    let kept = folders.suffix(limit)
    guard (try? PrivateFiles.ensurePrivateDirectory(environment.stateDirectory)) != nil else {
      return
    }
    try? PrivateFiles.atomicWrite(
      Array(kept.map { $0 + "\n" }.joined().utf8), to: file(environment))
  }

  /// Every folder an agent of this user may be listening in, each once: `everyFolder`, the
  /// token's, the recorded ones.
  public static func all(_ environment: VaultEnvironment) -> [String] {
    var folders = AgentSocket.everyFolder(environment)
    if let text = environment.variables["VAULT_SESSION"],
      case .token(let token) = SessionToken.parse(text)
    {
      folders.append(token.folder)
    }
    folders += recorded(environment)
    var seen: Set<String> = []
    return folders.filter { seen.insert($0).inserted }
  }
}
