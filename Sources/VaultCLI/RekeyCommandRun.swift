import VaultCore

/// `vault rekey`: a new master key, journal keys and recovery code, after the new code has been
/// shown and typed back.
enum RekeyCommandRun {
  /// Times the new code may be typed back before the command gives up.
  static let attempts = 3

  static func run(_ context: Context) throws {
    // The code is only ever shown on a terminal: refused before the PIN is asked for.
    guard let terminal = context.terminal else {
      throw VaultError.noTerminal(
        "vault rekey shows a new recovery code and needs a terminal to show it on",
        hint: "run it on a terminal")
    }
    let unlocked = try context.open(.administer(reason: "rotate the master key"))
    let code = RecoveryCode.generate()
    terminal.say(
      "New recovery code (it replaces the old one once the rotation is done; keep it offline):\n"
        + "  \(RecoveryCode.display(code))\n")
    try confirm(code, on: terminal)
    let done = try unlocked.rekey(recoveryCode: code)
    Output.error(
      "Rotated the master key: \(done.records) record\(done.records == 1 ? "" : "s") and"
        + " \(done.chunks) content chunk\(done.chunks == 1 ? "" : "s") sealed again, the key sealed"
        + " to \(done.devices) device\(done.devices == 1 ? "" : "s"); the old recovery code no"
        + " longer works and every session was revoked.")
  }

  /// Asks for `code` back on the terminal until it is typed right, at most `attempts` times; a
  /// typo is told apart from another code.
  ///
  /// - Throws: `VaultError.invalidInput` after the last wrong answer (nothing was changed).
  static func confirm(_ code: SecureBytes, on terminal: Terminal) throws {
    for attempt in 1...attempts {
      let typed = try terminal.readHidden(prompt: "Type the new recovery code back: ")
      let left = attempts - attempt
      do {
        if try RecoveryCode.parse(typed) == code { return }
        terminal.say(
          "That is not the code shown"
            + (left > 0 ? "; \(left) more tr\(left == 1 ? "y" : "ies").\n" : ".\n"))
      } catch let error as VaultError {
        terminal.say(
          ExitStatus.report(error).message
            + (left > 0 ? "; \(left) more tr\(left == 1 ? "y" : "ies").\n" : ".\n"))
      }
    }
    throw VaultError.invalidInput(
      "the new recovery code was not typed back; nothing was changed (the old code still works)")
  }
}
