import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault generate NAME`: store a random password (or with `--words`, a passphrase), printed
/// only with `--print`, copied with `--clip`; its entropy is said on standard error.
struct GenerateCommand: VaultCommand {
  static let about = CommandAbout(
    "generate", "Store a random password or passphrase under NAME.",
    discussion: """
      Passwords use randombytes_uniform over lower and upper case letters, digits and, unless \
      --no-symbols, the symbols !#$%&()*+,-./:;<=>?@[]^_{|}~, with at least one character of \
      each class (--charset chooses the classes, and chars:CHARACTERS adds a set of your own). \
      Passphrases are words from a built-in list of \(PasswordGenerator.wordListSize) short English words, joined by '-' \
      (or --separator). The entropy in bits (log2 of the number of equally likely secrets the \
      options allow) is said on standard error; the secret is printed only with --print, and \
      copied with --clip. With --in-place, only the first line of an existing entry is \
      replaced, and its fields and notes are kept; the old version goes to its history.
      """)

  @OptionParameter(Keys.length) var length
  @FlagParameter(Keys.noSymbols) var noSymbols
  @OptionParameter(Keys.charset) var charset
  @FlagParameter(Keys.noAmbiguous) var noAmbiguous
  @OptionParameter(Keys.words) var words
  @OptionParameter(Keys.separator) var separator
  @FlagParameter(Keys.force) var force
  @FlagParameter(Keys.inPlace) var inPlace
  @FlagParameter(Keys.print) var print
  @FlagParameter(Keys.generateClip) var generateClip
  @OptionParameter(Keys.clipTime) var clipTime
  @ArgumentParameter(Keys.name) var name

  func run(_ context: Context) throws -> Int32 {
    let clip = generateClip
    if inPlace && force {
      throw UsageError(
        message: "--in-place replaces the first line of an existing entry; --force is not needed",
        path: context.path)
    }
    if clipTime != nil && !clip {
      throw UsageError(message: "--clip-time needs --clip", path: context.path)
    }
    // Checked and drawn before unlocking, so a bad option never costs a PIN entry.
    let recipe = try recipe(path: context.path)
    if clip { _ = try Clipboard.tool(context.environment.variables) }
    let secret = try recipe.make()
    let reason = "store a generated secret as '\(name)'"
    if inPlace {
      let unlocked = try context.open(
        .readEntry(name, action: "replace the password of '\(name)' with a generated one"))
      guard let entry = unlocked.entry else { throw VaultError.notFound(name.value) }
      let content = try EntryFields(entry.content).setting(EntryFields.passwordKey, to: secret)
      try FieldEdit.store(content, of: entry, name: name, change: .generated, in: unlocked)
    } else {
      let store = try context.open(.use(reason: reason)).entries
      let existing = try store.metadata(name)
      if existing != nil && !force { throw VaultError.exists(name.value) }
      try store.put(
        name, content: secret, overwrite: force, guarded: existing?.guarded ?? false,
        change: .generated)
    }
    let shown = Output.printable(name.value)
    let word = Output.printable(ShellWord.argument(name.value))
    Output.error(
      "Stored a new \(recipe.description) as '\(shown)'"
        + (inPlace ? " (first line replaced)" : "") + "; entropy \(Int(recipe.entropy)) bits.")
    if clip {
      try Clipboard.copy(
        secret, name: name, what: "the new secret", seconds: clipTime, context: context)
    }
    if print {
      Output.writeValue(secret)
    } else if !clip {
      Output.error("Show it with: vault get \(word)")
    }
    return ExitCode.success.rawValue
  }

  /// What the options ask for: a password from an alphabet, or a passphrase.
  private enum Recipe {
    case password(length: Int, alphabet: PasswordAlphabet)
    case passphrase(words: Int, separator: [UInt8])

    var entropy: Double {
      switch self {
      case .password(let length, let alphabet): alphabet.entropy(length: length)
      case .passphrase(let words, _): PasswordGenerator.passphraseEntropy(words: words)
      }
    }

    var description: String {
      switch self {
      case .password(let length, let alphabet):
        "\(length)-character password (from \(alphabet.characters.count) characters)"
      case .passphrase(let words, _):
        "\(words)-word passphrase (from \(PasswordGenerator.wordListSize) words)"
      }
    }

    func make() throws -> SecureBytes {
      switch self {
      case .password(let length, let alphabet):
        try PasswordGenerator.password(length: length, alphabet: alphabet)
      case .passphrase(let words, let separator):
        try PasswordGenerator.passphrase(words: words, separator: separator)
      }
    }
  }

  /// What the options ask for, checked against each other.
  ///
  /// - Throws: `UsageError` for options that cannot be combined.
  private func recipe(path: [String]) throws -> Recipe {
    let passwordOptions = [
      length.map { _ in "--length" }, noSymbols ? "--no-symbols" : nil,
      charset.map { _ in "--charset" }, noAmbiguous ? "--no-ambiguous" : nil,
    ].compactMap { $0 }
    if let words {
      if let first = passwordOptions.first {
        throw UsageError(
          message: "--words makes a passphrase; it cannot be combined with \(first)", path: path)
      }
      return .passphrase(
        words: words, separator: separator?.bytes ?? [PasswordGenerator.separator])
    }
    if separator != nil {
      throw UsageError(message: "--separator needs --words", path: path)
    }
    if charset != nil && noSymbols {
      throw UsageError(
        message: "--no-symbols and --charset cannot be combined (leave symbols out of CLASSES)",
        path: path)
    }
    let alphabet: PasswordAlphabet
    do {
      alphabet =
        try charset.map { try PasswordAlphabet(charset: $0.text, noAmbiguous: noAmbiguous) }
        ?? PasswordAlphabet(
          named: [.lower, .upper, .digits] + (noSymbols ? [] : [.symbols]),
          noAmbiguous: noAmbiguous)
    } catch let error as SecretError {
      throw UsageError(message: "--charset with --no-ambiguous: \(error.message)", path: path)
    }
    return .password(length: length ?? PasswordGenerator.defaultLength, alphabet: alphabet)
  }
}
