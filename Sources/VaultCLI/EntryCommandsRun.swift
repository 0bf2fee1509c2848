import Foundation
import Glibc
import VaultCore

/// `add`, `get`, `list`, `rm`, `mv`.
enum EntryCommandsRun {
  static func add(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let vault = try context.openVault()
    let guarded = context.flag(Keys.guarded)
    let fromPipe = isatty(0) == 0
    if fromPipe && context.pinFD == 0 {
      throw VaultError.invalidInput(
        "--pin-fd 0 is standard input, which carries the content; give the PIN on another"
          + " descriptor, such as --pin-fd 3 3<pin-file")
    }
    var content: SecureBytes?
    if fromPipe {
      let data = try LineReader.readAll(fd: 0)
      guard data.count > 0 else {
        throw VaultError.invalidInput("standard input is empty; nothing was stored")
      }
      content = data
    }
    let (key, _) = try context.masterKey(vault, reason: "add '\(name)'")
    let store = EntryStore(vault: vault, masterKey: key)
    if !context.flag(Keys.force), try store.metadata(name) != nil {
      throw VaultError.exists(name.value)
    }
    let secret = try content ?? readFromTerminal(context, name: name)
    try store.put(
      name, content: secret, overwrite: context.flag(Keys.force), guarded: guarded)
  }

  private static func readFromTerminal(_ context: Context, name: EntryName) throws -> SecureBytes {
    guard let terminal = context.terminal else {
      throw VaultError.locked("no terminal to read the secret from")
    }
    if context.flag(Keys.multiline) {
      terminal.say("Enter the content of '\(name)', then Ctrl-D on an empty line:\n")
      let data = try LineReader.readAll(fd: 0)
      guard data.count > 0 else { throw VaultError.invalidInput("the content is empty") }
      return data
    }
    let first = try terminal.readHidden(prompt: "Secret for '\(name)': ")
    guard first.count > 0 else { throw VaultError.invalidInput("the content is empty") }
    let second = try terminal.readHidden(prompt: "Repeat it: ")
    guard first == second else {
      throw VaultError.invalidInput("the two entries differ; nothing was stored")
    }
    return first
  }

  static func get(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let clip = context.flag(Keys.clip)
    if try context.value(Keys.clipTime) != nil && !clip {
      throw VaultError.invalidInput("--clip-time needs --clip")
    }
    if clip {
      // Checked before unlocking, so a missing clipboard never costs a PIN entry.
      _ = try Clipboard.tool(context.environment.variables)
    }
    let (_, (_, content)) = try GuardedRead.read(context, name: name, reason: "read '\(name)'")
    if clip {
      try Clipboard.copy(content, name: name, context: context)
      return
    }
    content.withBytes { Output.write($0) }
  }

  static func list(_ context: Context) throws {
    let vault = try context.openVault()
    let (key, _) = try context.masterKey(vault, reason: "list entries")
    let prefix = try context.argumentIfGiven(Keys.prefix) ?? ""
    let entries = try EntryStore(vault: vault, masterKey: key).list(prefix: prefix)
    if context.flag(Keys.json) {
      let rows = entries.map {
        JSONOutput.object([
          ("name", .string($0.name)), ("created", .string($0.created)),
          ("updated", .string($0.updated)), ("guarded", .bool($0.guarded)),
        ])
      }
      Output.print(JSONOutput.array(rows).rendered + "\n")
    } else {
      for entry in entries { Output.print(entry.name + "\n") }
    }
  }

  static func remove(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let vault = try context.openVault()
    let (key, _) = try context.masterKey(vault, reason: "delete '\(name)'")
    try EntryStore(vault: vault, masterKey: key).remove(name)
  }

  static func move(_ context: Context) throws {
    let old = try context.argument(Keys.old)
    let new = try context.argument(Keys.new)
    let vault = try context.openVault()
    let (key, _) = try context.masterKey(vault, reason: "rename '\(old)'")
    try EntryStore(vault: vault, masterKey: key).move(
      old, to: new, overwrite: context.flag(Keys.moveForce))
  }
}

/// A guarded entry read inside a session: a fresh biometric check against the sealed domain
/// state; a second request for the same entry within one second is refused as a duplicate;
/// under lockout, or in a PIN-only vault, the PIN stands in.
enum GuardedRead {
  static let minimumInterval = 1.0

  /// Unlocks (session or inline) and reads `name`, with the guard's fresh check when the key
  /// came from a session: the one way `get` and `edit` open an entry.
  ///
  /// - Throws: the authentication errors, `VaultError.notFound`, the guard's errors.
  static func read(_ context: Context, name: EntryName, reason: String) throws
    -> (store: EntryStore, entry: (metadata: EntryMetadata, content: SecureBytes))
  {
    let vault = try context.openVault()
    let (key, source) = try context.masterKey(vault, reason: reason)
    let store = EntryStore(vault: vault, masterKey: key)
    guard let metadata = try store.metadata(name) else { throw VaultError.notFound(name.value) }
    if metadata.guarded && source == .session {
      try check(context, vault: vault, masterKey: key, name: name)
    }
    return (store, try store.get(name))
  }

  static func check(_ context: Context, vault: Vault, masterKey: SymmetricKey, name: EntryName)
    throws
  {
    let clock = context.environment.clock
    let key =
      vault.vaultID.hex + ":" + EntryStore(vault: vault, masterKey: masterKey).indexTag(name)
    let tooSoon: Bool = try context.deviceStore.update { state in
      let now = clock.bootNow
      if let last = state.lastGuardedRead[key], now >= last, now - last < minimumInterval {
        return true
      }
      state.lastGuardedRead[key] = now
      return false
    }
    if tooSoon {
      throw VaultError.duplicateRequest
    }
    let authenticator = context.authenticator(vault)
    guard authenticator.requiresBiometry else {
      let pin = try context.readPIN(for: vault, prompt: "PIN for guarded '\(name)': ")
      _ = try vault.unlock(pin: pin)
      return
    }
    do {
      try authenticator.checkPresence(masterKey: masterKey, reason: "read guarded '\(name)'")
    } catch VaultError.biometricLockout {
      // As `.deviceOwnerAuthentication`: the device credential stands in and clears the lockout.
      let pin = try context.readPIN(for: vault, prompt: "Sensor locked out; PIN for '\(name)': ")
      _ = try vault.unlock(pin: pin)
      try authenticator.gate.credentialVerified()
    }
  }
}
