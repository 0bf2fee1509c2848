import Glibc
import VaultCore

/// `otp` and `otp --set`.
enum OneTimeCodeCommandRun {
  static func run(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let clip = context.flag(Keys.clip)
    let clipTime = try context.value(Keys.clipTime) != nil
    if context.flag(Keys.otpSet) {
      for (given, option) in [
        (clip, "--clip"), (clipTime, "--clip-time"), (context.flag(Keys.json), "--json"),
      ]
      where given {
        throw UsageError(
          message: "\(option) cannot be used with --set", path: context.invocation.path)
      }
      try set(context, name: name)
      return
    }
    if clipTime && !clip {
      throw UsageError(message: "--clip-time needs --clip", path: context.invocation.path)
    }
    if clip {
      // Checked before unlocking, so a missing clipboard never costs a PIN entry.
      _ = try Clipboard.tool(context.environment.variables)
    }
    let unlocked = try context.open(.readEntry(name))
    guard let content = unlocked.entry?.content else { throw VaultError.notFound(name.value) }
    guard let uri = try EntryFields(content).oneTimeCodeURI else {
      throw VaultError.noOneTimeCode(name.value)
    }
    let code = try OneTimeCode(uri: uri)
    let made: SecureBytes
    let details: String
    switch code.kind {
    case .totp(let period):
      let now = context.environment.clock.wallNow
      made = try code.code(at: now)
      details = "\"seconds_left\":\(code.secondsLeft(at: now) ?? period),\"period\":\(period)"
    case .hotp:
      let counted = try unlocked.entries.nextCode(code, of: name)
      made = counted.code
      details = "\"counter\":\(counted.counter)"
    }
    if clip {
      try Clipboard.copy(
        made, name: name, what: "the one-time code of '\(Output.printable(name.value))'",
        context: context)
    } else if context.flag(Keys.json) {
      Output.print("{\"code\":\"")
      made.withBytes { Output.write($0) }
      Output.print("\"," + details + "}\n")
    } else {
      Output.writeValue(made)
    }
  }

  /// `otp NAME --set`: reads the URI or secret (from a pipe before unlocking, so bad input costs
  /// no PIN; on a terminal after), checks it, and stores it as the `otp` field.
  static func set(_ context: Context, name: EntryName) throws {
    let fromPipe = isatty(0) == 0
    if fromPipe { try context.refusePINOnStandardInput("carries the one-time code") }
    var given: SecureBytes?
    if fromPipe {
      let uri = try storedURI(withoutNewline(try LineReader.readAll(fd: 0)), name: name)
      given = uri
    }
    let unlocked = try context.open(.readEntry(name))
    guard let entry = unlocked.entry else { throw VaultError.notFound(name.value) }
    let uri: SecureBytes
    if let given {
      uri = given
    } else {
      guard let terminal = context.terminal else {
        throw VaultError.locked("no terminal to read the one-time code from")
      }
      uri = try storedURI(
        terminal.readHidden(prompt: "otpauth:// URI or base32 secret for '\(name)': "),
        name: name)
    }
    let code = try OneTimeCode(uri: uri)
    let content = try EntryFields(entry.content).setting("otp", to: uri)
    try unlocked.entries.put(
      name, content: content, overwrite: true, guarded: false,
      expectedRevision: entry.metadata.revision, change: .oneTimeCode)
    Output.error(
      "Stored the one-time code of '\(Output.printable(name.value))': \(describe(code)).")
  }

  /// `input` as the URI to store: itself when it is an `otpauth://` URI (checked), else the TOTP
  /// URI of a bare base32 secret labelled with the entry's name.
  static func storedURI(_ input: SecureBytes, name: EntryName) throws -> SecureBytes {
    let scheme = Array("otpauth://".utf8)
    let isURI = input.withBytes { bytes in
      bytes.count >= scheme.count
        && zip(bytes, scheme).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0) == $1 }
    }
    guard isURI else { return try OneTimeCode.uri(secret: input, label: name.value) }
    _ = try OneTimeCode(uri: input)
    return input
  }

  /// `data` without one trailing LF (or CRLF).
  static func withoutNewline(_ data: SecureBytes) -> SecureBytes {
    var count = data.count
    if count > 0 && data[count - 1] == 0x0A {
      count -= 1
      if count > 0 && data[count - 1] == 0x0D { count -= 1 }
    }
    return data.prefix(count)
  }

  /// `TOTP, SHA1, 6 digits, every 30 s` or `HOTP, SHA1, 6 digits, from counter 0`.
  static func describe(_ code: OneTimeCode) -> String {
    switch code.kind {
    case .totp(let period):
      "TOTP, \(code.algorithm.rawValue), \(code.digits) digits, every \(period) s"
    case .hotp(let counter):
      "HOTP, \(code.algorithm.rawValue), \(code.digits) digits, from counter \(counter)"
    }
  }
}
