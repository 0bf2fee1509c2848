import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault pick`: an entry chosen in a menu, its password (or a field, or its one-time code)
/// copied, printed or typed, for a launcher's key binding.
struct PickCommand: VaultCommand {
  static let about = CommandAbout(
    "pick", "Choose an entry in a menu, then copy, print or type its password.",
    discussion: """
      Shows the names (under PREFIX) in a menu program, which gets the names only, never a \
      content; then copies the chosen entry's password to the clipboard (--clip, the \
      default, cleared after --clip-time), prints it (--print) or types it (--type) into \
      the window that had the focus when the menu opened; if that window is gone, nothing \
      is typed. --field KEY and --otp choose another value; --autotype types the \
      username, Tab, the password and Enter. A value with characters the typing tool \
      cannot send (control characters) is copied instead. The agent serves pick when it \
      holds the vault; without a terminal it asks for the PIN through a pinentry. See PICK \
      in vault(1) for a launcher's key binding.
      """)

  @OptionParameter(Keys.menu) var menu
  @FlagParameter(Keys.pickClip) var clip
  @FlagParameter(Keys.pickPrint) var print
  @FlagParameter(Keys.pickType) var type
  @FlagParameter(Keys.autotype) var autotype
  @OptionParameter(Keys.field) var field
  @FlagParameter(Keys.pickOTP) var otp
  @OptionParameter(Keys.clipTime) var clipTime
  @OptionalArgument(Keys.listPrefix) var prefix

  /// What is done with the value.
  enum Delivery {
    case clip
    case print
    case type
    case autotype
  }

  /// One way to deliver; `--field` or `--otp`, not both, and neither with `--autotype`;
  /// `--clip-time` not with `--print`.
  ///
  /// - Throws: `UsageError` (exit 64).
  func validate(path: [String]) throws {
    let given = [
      (clip, "--clip"), (print, "--print"), (type, "--type"), (autotype, "--autotype"),
    ].filter(\.0).map(\.1)
    if given.count > 1 {
      throw UsageError(message: "\(given[0]) and \(given[1]) cannot be combined", path: path)
    }
    if field != nil && otp {
      throw UsageError(message: "--field and --otp cannot be combined", path: path)
    }
    if autotype && (field != nil || otp) {
      throw UsageError(
        message: "--autotype types the username and the password; \(otp ? "--otp" : "--field")"
          + " chooses one value: use it with --type", path: path)
    }
    if clipTime != nil && print {
      throw UsageError(message: "--clip-time needs --clip, --type or --autotype", path: path)
    }
  }

  var delivery: Delivery {
    if print { return .print }
    if type { return .type }
    if autotype { return .autotype }
    return .clip
  }

  func run(_ context: Context) throws -> Int32 {
    let variables = context.environment.variables
    // Every program pick needs is found before the PIN is asked for.
    var typist: Typist?
    switch delivery {
    case .clip: _ = try Clipboard.tool(variables)
    case .type, .autotype: typist = try Typist.find(variables)
    case .print: break
    }
    let menuProgram = try MenuProgram.resolve(
      menu, variables, hasTerminal: context.terminal != nil)
    // On a terminal, the window with the focus is that terminal's (whatever the terminal, and
    // through tmux or ssh): typed there, an autotype's Enter runs the password as a command.
    if typist != nil, context.terminal != nil {
      throw CommandFailed(
        "pick runs on a terminal, whose window has the focus: --type and --autotype type into"
          + " the window you were in when a launcher key ran pick; use --clip or --print here")
    }
    // The window the user was in when the launcher ran pick, before a pinentry or the menu
    // takes the focus.
    let window = try typist?.focusedWindow()
    do {
      let (source, names) = try PickSource.open(context, prefix: prefix)
      let listed = Set(names.split(separator: 10).map { String(decoding: $0, as: UTF8.self) })
      guard !listed.isEmpty else { throw NothingToPick(prefix: prefix) }
      let choice = try menuProgram.choose(names, variables: variables)
      guard listed.contains(choice), let name = try? EntryName(choice) else {
        throw VaultError.notFound(choice)
      }
      try deliver(name, from: source, context, typist: typist, window: window)
    } catch let reported as ReportedByAgent {
      return reported.code
    }
    return ExitCode.success.rawValue
  }

  /// Reads the value (or, for `--autotype`, the username and the password) of `name` and
  /// delivers it.
  private func deliver(
    _ name: EntryName, from source: PickSource, _ context: Context, typist: Typist?,
    window: String?
  ) throws {
    let shown = "'\(Output.printable(name.value))'"
    if otp {
      let code = try source.oneTimeCode(name, context)
      try deliver(code, what: "the one-time code of \(shown)", name, context, typist, window)
      return
    }
    let content = try source.content(name, context)
    if delivery == .autotype, let typist {
      let fields = try EntryFields(content)
      guard let username = fields.username, username.count > 0 else {
        throw VaultError.noField(name: name.value, key: "username", keys: fields.keys)
      }
      let password = fields.password
      guard password.count > 0 else {
        throw InputRefused("the password of \(shown) is empty; nothing was typed")
      }
      if let window { try typist.refocus(window) }
      guard typist.canType(username), typist.canType(password) else {
        try copyInstead(
          password, what: "the password of \(shown)", name, context, typist: typist,
          reason: typist.canType(username) ? "the password" : "the username")
        return
      }
      // The focus is checked before each step: a window that took it meanwhile gets nothing
      // more, above all not the password and its Enter.
      try typist.type(username)
      try typist.checkFocus(window)
      try typist.press(.tab)
      try typist.checkFocus(window)
      try typist.type(password)
      try typist.checkFocus(window)
      try typist.press(.enter)
      Output.error("Typed the username and password of \(shown) (\(typist.tool.rawValue)).")
      return
    }
    let selection = EntrySelection.field(field?.text ?? EntryFields.passwordKey)
    let value = try selection.select(from: content, name: name.value)
    try deliver(value, what: selection.clipped(name.value), name, context, typist, window)
  }

  /// Copies, prints or types `value`, named `what` in messages.
  private func deliver(
    _ value: SecureBytes, what: String, _ name: EntryName, _ context: Context, _ typist: Typist?,
    _ window: String?
  ) throws {
    if delivery == .print {
      Output.writeValue(value)
      return
    }
    guard value.count > 0 else { throw InputRefused("\(what) is empty; nothing was done") }
    guard let typist else {
      try Clipboard.copy(value, name: name, what: what, seconds: clipTime, context: context)
      return
    }
    if let window { try typist.refocus(window) }
    guard typist.canType(value) else {
      try copyInstead(value, what: what, name, context, typist: typist, reason: what)
      return
    }
    try typist.type(value)
    Output.error("Typed \(what) (\(typist.tool.rawValue)).")
  }

  /// The clipboard instead of typing, for a value with characters the tool cannot send.
  private func copyInstead(
    _ value: SecureBytes, what: String, _ name: EntryName, _ context: Context, typist: Typist,
    reason: String
  ) throws {
    Output.error(
      "vault: note: \(reason) has characters \(typist.tool.rawValue) does not type as they are"
        + " (\(typist.untypeable)); nothing was typed")
    try Clipboard.copy(value, name: name, what: what, seconds: clipTime, context: context)
  }
}

/// `vault pick` found no names to show (exit 3).
struct NothingToPick: ReportableError {
  /// The prefix given, if any.
  let prefix: String?
  var exitCode: ExitCode { .noSuchEntry }
  var message: String {
    guard let prefix, !prefix.isEmpty else { return "the vault has no entries to pick from" }
    return "no entry name starts with '\(Output.printable(prefix))'"
  }
}
