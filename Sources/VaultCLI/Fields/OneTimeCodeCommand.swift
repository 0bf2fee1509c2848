import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `otp` and `otp --set`.
struct OneTimeCodeCommand: VaultCommand {
  static let about = CommandAbout(
    "otp", "Print the current one-time code (TOTP or HOTP) of an entry.",
    discussion: """
      The code comes from the otpauth:// URI in the entry's otp field, else from its first line \
      that is such a URI, honouring its algorithm (SHA1, SHA256, SHA512), digits (6 to 8), \
      period and, for HOTP, counter; liboath (RFC 6238, RFC 4226) makes it. On a pipe it is \
      written without a newline. An HOTP code advances the entry's counter in the same \
      transaction, so two commands never print the same code; no history revision is made. \
      With --set, stores the otp field instead: a URI is checked and kept as given, a bare \
      base32 secret becomes otpauth://totp/NAME?secret=SECRET (30 s, 6 digits, SHA1); read \
      from a hidden prompt, or from standard input (one trailing newline dropped).
      """)

  @FlagParameter(Keys.otpSet) var otpSet
  @FlagParameter(Keys.json) var json
  @FlagParameter(Keys.clip) var clip
  @OptionParameter(Keys.clipTime) var clipTime
  @ArgumentParameter(Keys.name) var name

  func run(_ context: Context) throws -> Int32 {
    let clipTime = self.clipTime != nil
    if otpSet {
      for (given, option) in [
        (clip, "--clip"), (clipTime, "--clip-time"), (json, "--json"),
      ]
      where given {
        throw UsageError(
          message: "\(option) cannot be used with --set", path: context.path)
      }
      try Self.set(context, name: name)
      return ExitCode.success.rawValue
    }
    if clipTime && !clip {
      throw UsageError(message: "--clip-time needs --clip", path: context.path)
    }
    if clip && json {
      throw UsageError(
        message: "--clip copies the code; --json prints it", path: context.path)
    }
    if clip {
      // Checked before unlocking, so a missing clipboard never costs a PIN entry.
      _ = try Clipboard.tool(context.environment.variables)
    }
    let unlocked = try context.open(
      .readEntry(name, action: "make a one-time code of '\(name)'"))
    guard let content = try unlocked.entry?.content else { throw VaultError.notFound(name.value) }
    try Self.current(
      of: name, content: content, in: unlocked, now: context.environment.clock.wallNow
    ) {
      made, details in
      if clip {
        try Clipboard.copy(
          made, name: name, what: "the one-time code of '\(Output.printable(name.value))'",
          seconds: self.clipTime, context: context)
      } else if json {
        Output.print("{\"code\":\"")
        made.withBytes { Output.write($0) }
        Output.print("\"," + details + "}\n")
      } else {
        Output.writeValue(made)
      }
    }
    return ExitCode.success.rawValue
  }

  /// Makes the current code of the entry `name` (content `content`) and hands it to `deliver`.
  ///
  /// The details come as JSON members (`"seconds_left":12,"period":30` or `"counter":4`). An
  /// HOTP code is handed over before its counter advances, in the same
  /// transaction, so a failed delivery stores nothing.
  ///
  /// - Throws: `VaultError.noOneTimeCode` (exit 3) when the entry has no code; the URI's
  ///   refusals; what `deliver` throws.
  static func current(
    of name: EntryName, content: SecureBytes, in unlocked: UnlockedVault, now: Double,
    deliver: (SecureBytes, String) throws -> Void
  ) throws {
    let fields = try EntryFields(content)
    // An otp field that is no URI is read as --set reads it (a bare base32 secret), so a
    // malformed one is refused with its reason rather than taken for no code at all.
    guard
      let uri = try fields.oneTimeCodeURI
        ?? fields.value("otp").map({
          try Self.storedURI(Self.trimmed($0), name: name)
        })
    else {
      throw VaultError.noOneTimeCode(name.value)
    }
    let code = try OneTimeCode(uri: uri)
    // liboath and the URI's parsing leave pieces of the secret on the stack.
    SecureBytes.wipeStack()
    defer { SecureBytes.wipeStack() }
    switch code.kind {
    case .totp(let period):
      try deliver(
        try code.code(at: now),
        "\"seconds_left\":\(code.secondsLeft(at: now) ?? period),\"period\":\(period)")
    case .hotp:
      // Shown or copied before the counter is committed (a failure to write stores nothing).
      _ = try unlocked.entries.nextCode(code, of: name) {
        try deliver($0.code, "\"counter\":\($0.counter)")
      }
    }
  }

  /// `input` without the spaces, tabs and line breaks at either end (a pasted URI or secret).
  static func trimmed(_ input: SecureBytes) -> SecureBytes {
    input.withBytes { bytes in
      let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
      guard let first = bytes.firstIndex(where: { !blank($0) }),
        let last = bytes.lastIndex(where: { !blank($0) })
      else { return SecureBytes(count: 0) }
      return SecureBytes(copying: bytes[first...last])
    }
  }

  /// `otp NAME --set`: reads the URI or secret (from a pipe before unlocking, so bad input costs
  /// no PIN; on a terminal after), checks it, and stores it as the `otp` field.
  static func set(_ context: Context, name: EntryName) throws {
    let fromPipe = isatty(0) == 0
    if fromPipe { try context.refusePINOnStandardInput("carries the one-time code") }
    var given: SecureBytes?
    if fromPipe {
      let uri = try storedURI(
        trimmed(
          LineReader.readAll(
            fd: 0, atMost: EntryStore.streamThreshold, what: "the URI on standard input")),
        name: name)
      given = uri
    }
    let unlocked = try context.open(
      .readEntry(name, action: "store the one-time code of '\(name)'"))
    guard let entry = unlocked.entry else { throw VaultError.notFound(name.value) }
    let uri: SecureBytes
    if let given {
      uri = given
    } else {
      guard let terminal = context.terminal else {
        throw VaultError.locked(.noTerminalToRead(.oneTimeCode))
      }
      uri = try storedURI(
        trimmed(terminal.readHidden(prompt: "otpauth:// URI or base32 secret for '\(name)': ")),
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
