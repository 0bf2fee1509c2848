import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// The committed completion scripts in the real shells, against a real vault and session: bash
/// through `COMP_WORDS`/`COMP_CWORD`, fish through `complete -C`, and bash, zsh and fish on a
/// pseudo-terminal, where a Tab must turn each awkward name into exactly that word.
final class ShellCompletionTests: XCTestCase {
  override func setUpWithError() throws {
    try TestTier.requireSystem("real shells")
  }

  /// Entry names that a careless script would split, expand, glob or take for an option.
  static let names = ["two words", "it's", "$HOME", "star*", "-dash", "café"]
  /// The same, in the order `vault __complete` prints them (UTF-8 byte order).
  static let sortedNames = ["$HOME", "-dash", "café", "it's", "star*", "two words"]
  static let vaultCommands = VaultCommands.program.root.visibleSubcommands.map(\.name)
  static let addOptions = optionWords(["add"])
  static let profiles = ["interactive", "moderate", "sensitive"]
  static let sensorTypes = ["none", "touch-id", "face-id", "optic-id"]

  let completions = GeneratorTestSupport.packageRoot + "/completions"

  /// The option words the table gives the command at `path`, as the scripts offer them.
  static func optionWords(_ path: [String]) -> [String] {
    VaultCommands.program.completionNodes.first { $0.path == path }?.options.flatMap(\.words) ?? []
  }

  func testTheExpectationsComeFromASaneTable() {
    XCTAssertEqual(
      Self.addOptions,
      ["-f", "--force", "-m", "--multiline", "--guard", "--vault", "--pin-fd", "-h", "--help"])
    XCTAssertTrue(Self.vaultCommands.starts(with: ["init", "add", "get", "list", "rm", "mv"]))
    XCTAssertFalse(Self.vaultCommands.contains { $0.hasPrefix("_") })
  }

  /// A PIN-only vault holding `names`, a session token for it, and the environment the shells
  /// run in (the built binaries first on PATH, VAULT_SESSION set).
  struct Fixture {
    let box: Sandbox
    let environment: [String: String]

    /// The environment without a session: the vault is locked.
    var locked: [String: String] { environment.filter { $0.key != "VAULT_SESSION" } }
  }

  func makeFixture() throws -> Fixture {
    let box = Sandbox()
    box.initPINOnly()
    for name in Self.names {
      let result = Subprocess.run(
        Sandbox.binDirectory + "/vault", ["add", "--pin-fd", "3", "--", name],
        environment: box.environment, stdin: Array("secret".utf8),
        extra: (fd: 3, data: Array((Sandbox.pin + "\n").utf8)))
      XCTAssertEqual(result.status, 0, "add \(name): \(result.stderrText)")
    }
    let unlock = box.vaultPIN(["unlock", "--raw"])
    XCTAssertEqual(unlock.status, 0, unlock.stderrText)
    var environment = box.environment
    environment["PATH"] = Sandbox.binDirectory + ":/usr/bin:/bin"
    environment["VAULT_SESSION"] = unlock.stdoutText.trimmingCharacters(in: .newlines)
    environment["TERM"] = "xterm"
    // A file that `star*` matches: an unquoted `*` would show up as this name.
    XCTAssertTrue(FileManager.default.createFile(atPath: box.home + "/star-file", contents: Data()))
    // Swift may release the sandbox after its last use; it must outlive the test, and XCTest
    // keeps teardown blocks (and so the sandbox) alive to the end of the run: remove it here.
    let home = box.home
    addTeardownBlock {
      withExtendedLifetime(box) { try? FileManager.default.removeItem(atPath: home) }
    }
    return Fixture(box: box, environment: environment)
  }

  // MARK: - vault __complete

  func testCompleteCommandPrintsNamesWithASessionAndNothingElseWithout() throws {
    let fixture = try makeFixture()
    let vault = Sandbox.binDirectory + "/vault"
    let all = Subprocess.run(vault, ["__complete"], environment: fixture.environment)
    XCTAssertEqual(all.stdoutText, Self.sortedNames.map { $0 + "\n" }.joined())
    XCTAssertEqual(all.stderrText, "")
    let nfd = Subprocess.run(
      vault, ["__complete", "--", "cafe\u{301}"], environment: fixture.environment)
    XCTAssertEqual(nfd.stdoutText, "café\n")
    let dash = Subprocess.run(vault, ["__complete", "--", "-"], environment: fixture.environment)
    XCTAssertEqual(dash.stdoutText, "-dash\n")

    var forged = fixture.environment
    forged["VAULT_SESSION"] = String(repeating: "ab", count: 32)
    for environment in [fixture.locked, forged] {
      let result = Subprocess.run(vault, ["__complete", "--", ""], environment: environment)
      XCTAssertEqual(result.status, 0)
      XCTAssertEqual(result.stdout, [])
      XCTAssertEqual(result.stderr, [])
    }
    XCTAssertEqual(Subprocess.run(vault, ["lock"], environment: fixture.environment).status, 0)
    let revoked = Subprocess.run(vault, ["__complete"], environment: fixture.environment)
    XCTAssertEqual([revoked.status], [0])
    XCTAssertEqual(revoked.stdout + revoked.stderr, [])
  }

  // MARK: - bash through COMP_WORDS and COMP_CWORD

  /// COMPREPLY after calling the program's completion function on `words` (as bash splits
  /// them; the last is the word being completed) with the command line `line`.
  func bash(
    _ words: [String], line: String? = nil, environment: [String: String],
    file: StaticString = #filePath, lineNumber: UInt = #line
  ) throws -> [String] {
    let (replies, errors) = try Self.bash(words, line: line, environment: environment)
    XCTAssertEqual(errors, "", file: file, line: lineNumber)
    return replies
  }

  /// As `bash(_:line:environment:)`, with what bash wrote on standard error.
  static func bash(_ words: [String], line: String? = nil, environment: [String: String]) throws
    -> (replies: [String], errors: String)
  {
    let bash = try GeneratorTestSupport.tool("bash", package: "bash")
    let library = "/usr/share/bash-completion/bash_completion"
    try GeneratorTestSupport.requireFile(library, package: "bash-completion")
    let script = """
      source \(library)
      source "$1"
      shift
      cd "$HOME"
      COMP_WORDS=("$@")
      COMP_CWORD=$(($# - 1))
      COMP_LINE=${COMP_LINE_GIVEN:-$*}
      COMP_POINT=${#COMP_LINE}
      COMPREPLY=()
      _$1 "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf '%s\\0' "${COMPREPLY[@]}"
      """
    var environment = environment
    if let line { environment["COMP_LINE_GIVEN"] = line }
    let result = Subprocess.run(
      bash,
      [
        "--norc", "--noprofile", "-c", script, "bash",
        "\(GeneratorTestSupport.packageRoot)/completions/\(words[0]).bash",
      ]
        + words, environment: environment)
    let replies = result.stdoutText.split(separator: "\0", omittingEmptySubsequences: true)
      .map(String.init)
    return (replies, result.stderrText)
  }

  func testBashCompletesCommandsOptionsAndValues() throws {
    let env = try makeFixture().environment
    XCTAssertEqual(try bash(["vault", ""], environment: env), Self.vaultCommands)
    XCTAssertEqual(
      try bash(["vault", "add", "--"], environment: env),
      Self.addOptions.filter { $0.hasPrefix("--") })
    XCTAssertEqual(try bash(["vault", "init", "--kdf", ""], environment: env), Self.profiles)
    XCTAssertEqual(
      try bash(["vault", "init", "--kdf", "=", "m"], line: "vault init --kdf=m", environment: env),
      ["moderate"])
    XCTAssertEqual(try bash(["biosim", "hardware", ""], environment: env), Self.sensorTypes)
    XCTAssertEqual(
      try bash(["vault", "bio", ""], environment: env), ["activate", "deactivate", "status"])
    XCTAssertEqual(
      try bash(["vault", "completions", ""], environment: env), ["bash", "zsh", "fish"])
    // New-user review: a sync REMOTE, most often a path, completes as one.
    XCTAssertEqual(try bash(["vault", "sync", "init", "star"], environment: env), ["star-file"])
    XCTAssertEqual(try bash(["vault", "sync", "clone", "star"], environment: env), ["star-file"])
    XCTAssertEqual(try bash(["vault", "help", ""], environment: env), Self.vaultCommands)
    XCTAssertEqual(try bash(["vault", "help", "bi"], environment: env), ["biometry"])
    XCTAssertEqual(try fish("vault help bi", environment: env), ["biometry"])
  }

  func testBashCompletesEntryNamesQuotedForTheirPlace() throws {
    let fixture = try makeFixture()
    let env = fixture.environment
    let bare = [#"\$HOME"#, "-dash", "café", #"it\'s"#, #"star\*"#, #"two\ words"#]
    XCTAssertEqual(try bash(["vault", "get", ""], environment: env), bare)
    XCTAssertEqual(try bash(["vault", "mv", #"two\ words"#, ""], environment: env), bare)
    XCTAssertEqual(try bash(["vault", "get", "two"], environment: env), [#"two\ words"#])
    XCTAssertEqual(try bash(["vault", "get", #"two\ w"#], environment: env), [#"two\ words"#])
    XCTAssertEqual(try bash(["vault", "get", #"\$H"#], environment: env), [#"\$HOME"#])
    XCTAssertEqual(try bash(["vault", "get", "st"], environment: env), [#"star\*"#])
    XCTAssertEqual(try bash(["vault", "get", "caf"], environment: env), ["café"])
    XCTAssertEqual(try bash(["vault", "get", "--", "-d"], environment: env), ["-dash"])
    // After an open quote readline inserts the text as given and closes the quote.
    XCTAssertEqual(try bash(["vault", "get", "'two"], environment: env), ["two words"])
    XCTAssertEqual(try bash(["vault", "get", "'it"], environment: env), [#"it'\''s"#])
    XCTAssertEqual(try bash(["vault", "get", #""$H"#], environment: env), [#"\$HOME"#])
    // A word starting with '-' is an option until '--'.
    XCTAssertEqual(try bash(["vault", "get", "-"], environment: env), Self.optionWords(["get"]))
    XCTAssertEqual(
      try bash(["vault", "--vault", fixture.box.vaultPath, "get", "caf"], environment: env),
      ["café"])
    XCTAssertEqual(try bash(["vault", "get", ""], environment: fixture.locked), [])
  }

  // MARK: - fish through complete -C

  func fish(_ line: String, environment: [String: String]) throws -> [String] {
    let (candidates, errors) = try Self.fish(line, environment: environment)
    XCTAssertEqual(errors, "", line)
    return candidates
  }

  /// The candidates fish offers for `line` (`complete -C`), and what it wrote on standard error.
  static func fish(_ line: String, environment: [String: String]) throws
    -> (candidates: [String], errors: String)
  {
    let fish = try GeneratorTestSupport.tool("fish", package: "fish")
    let program = String(line.prefix { $0 != " " })
    let result = Subprocess.run(
      fish,
      [
        "--no-config", "-c", "source $argv[1]; complete -C $argv[2]",
        "\(GeneratorTestSupport.packageRoot)/completions/\(program).fish", line,
      ],
      environment: environment)
    let candidates = result.stdoutText.split(separator: "\n").map {
      String($0.prefix { $0 != "\t" })
    }
    return (candidates, result.stderrText)
  }

  func testFishCompletesCommandsOptionsValuesAndNames() throws {
    let fixture = try makeFixture()
    let env = fixture.environment
    XCTAssertEqual(try fish("vault ", environment: env), Self.vaultCommands.sorted())
    XCTAssertEqual(
      try fish("vault add --", environment: env),
      Self.addOptions.filter { $0.hasPrefix("--") }.sorted())
    XCTAssertEqual(try fish("vault init --kdf ", environment: env), Self.profiles)
    XCTAssertEqual(try fish("biosim hardware ", environment: env), Self.sensorTypes.sorted())
    XCTAssertEqual(
      try fish("vault bio ", environment: env), ["activate", "deactivate", "status"])
    XCTAssertEqual(try fish("vault get ", environment: env).sorted(), Self.sortedNames.sorted())
    XCTAssertEqual(try fish("vault get two", environment: env), ["two words"])
    XCTAssertEqual(try fish("vault get caf", environment: env), ["café"])
    XCTAssertEqual(try fish("vault get -- -d", environment: env), ["-dash"])
    XCTAssertEqual(
      try fish("vault get -", environment: env).sorted(), Self.optionWords(["get"]).sorted())
    XCTAssertEqual(try fish("vault get ", environment: fixture.locked), [])
  }

  // MARK: - On a terminal: what a Tab really inserts

  /// What one typed line left: the candidates zsh offered, the line after the Tab, and the last
  /// word of that line as the shell itself evaluates it.
  struct Typed: Equatable {
    var candidates: [String]
    var line: String
    var word: String
  }

  /// Starts `argv` on a pseudo-terminal, runs `setup` (which must write `ok` to $READY and
  /// define Ctrl-T to append `LINE:` and `WORD:` lines to $OUT), then types each line and a Tab.
  func typeEach(
    _ lines: [String], argv: [String], setup: String, environment: [String: String]
  ) throws -> [Typed] {
    let home = environment["HOME"] ?? "/tmp"
    var environment = environment
    environment["OUT"] = home + "/typed"
    environment["READY"] = home + "/ready"
    var steps: [GeneratorTestSupport.Step] = [
      .type(setup + "\r"), .wait(file: home + "/ready", text: "ok", count: 1),
    ]
    for (index, line) in lines.enumerated() {
      steps += [
        .type(line + "\t"), .type("\u{14}"),
        .wait(file: home + "/typed", text: "WORD:", count: index + 1), .type("\u{01}\u{0b}"),
      ]
    }
    let run = try GeneratorTestSupport.terminal(argv, environment: environment, steps: steps)
    XCTAssertEqual(
      run.timedOut, [], "the shell did not answer; its terminal showed:\n\(run.output)")
    let text =
      (FileManager.default.contents(atPath: home + "/typed")).map {
        String(decoding: $0, as: UTF8.self)
      } ?? ""
    var typed: [Typed] = []
    var pending = Typed(candidates: [], line: "", word: "")
    for row in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if row.hasPrefix("LINE:") {
        pending.line = String(row.dropFirst(5))
      } else if row.hasPrefix("WORD:") {
        pending.word = String(row.dropFirst(5))
        typed.append(pending)
        pending = Typed(candidates: [], line: "", word: "")
      } else if !row.isEmpty {
        pending.candidates.append(String(row))
      }
    }
    return typed
  }

  /// Lines whose Tab must complete one name, and that name.
  static let uniqueNames: [(typed: String, name: String)] = [
    ("vault get two", "two words"), ("vault get it", "it's"), (#"vault get \$H"#, "$HOME"),
    ("vault get st", "star*"), ("vault get caf", "café"), ("vault get -- -d", "-dash"),
    ("vault get 'two", "two words"), ("vault get 'it", "it's"),
  ]

  func assertInserted(_ typed: [Typed], _ cases: [(typed: String, name: String)], _ shell: String) {
    XCTAssertEqual(typed.count, cases.count, shell)
    for (result, expected) in zip(typed, cases) {
      XCTAssertEqual(
        result.word, expected.name, "\(shell): '\(expected.typed)' became '\(result.line)'")
      XCTAssertTrue(result.line.hasSuffix(" "), "\(shell): '\(result.line)' is not complete")
    }
  }

  func testBashTabInsertsExactlyTheName() throws {
    let bash = try GeneratorTestSupport.tool("bash", package: "bash")
    try GeneratorTestSupport.requireFile(
      "/usr/share/bash-completion/bash_completion", package: "bash-completion")
    let fixture = try makeFixture()
    let setup = """
      stty rows 50 cols 200; source /usr/share/bash-completion/bash_completion; \
      source \(completions)/vault.bash; cd "$HOME"; \
      __dump() { local -a w; eval "w=($READLINE_LINE)"; \
      printf 'LINE:%s\\nWORD:%s\\n' "$READLINE_LINE" "${w[-1]}" >> "$OUT"; }; \
      bind -x '"\\C-t": __dump'; echo ok > "$READY"
      """
    let cases = Self.uniqueNames + [(#"vault get "$H"#, "$HOME")]
    let typed = try typeEach(
      cases.map(\.typed), argv: [bash, "--norc", "--noprofile", "-i"], setup: setup,
      environment: fixture.environment)
    assertInserted(typed, cases, "bash")
  }

  func testZshOffersAndInsertsExactly() throws {
    let zsh = try GeneratorTestSupport.tool("zsh", package: "zsh")
    let fixture = try makeFixture()
    // compadd is wrapped to record what each completion offers (as zsh's own tests do).
    let setup = """
      stty rows 50 cols 200; fpath=(\(completions) $fpath); autoload -Uz compinit; \
      compinit -u -D; cd $HOME; \
      compadd() { local -a hits; if (( ${argv[(I)-[OAD]]} )); then builtin compadd "$@"; \
      return; fi; builtin compadd -O hits "$@"; (( $#hits )) && print -rl -- $hits >> $OUT; \
      builtin compadd "$@"; }; \
      __dump() { local -a w; eval "w=($BUFFER)"; \
      print -r -- "LINE:$BUFFER"$'\\n'"WORD:$w[-1]" >> $OUT; }; \
      zle -N __dump; bindkey '^T' __dump; print ok > $READY
      """
    let lists: [(typed: String, candidates: [String])] = [
      ("vault ", Self.vaultCommands),
      ("vault add --", Self.addOptions.filter { $0.hasPrefix("--") }),
      ("vault init --kdf ", Self.profiles), ("biosim hardware ", Self.sensorTypes),
      ("vault bio ", ["activate", "deactivate", "status"]), ("vault get ", Self.sortedNames),
    ]
    let typed = try typeEach(
      lists.map(\.typed) + Self.uniqueNames.map(\.typed), argv: [zsh, "-f", "-i"], setup: setup,
      environment: fixture.environment)
    XCTAssertEqual(typed.count, lists.count + Self.uniqueNames.count)
    for (result, expected) in zip(typed, lists) {
      XCTAssertEqual(result.candidates.sorted(), expected.candidates.sorted(), expected.typed)
    }
    assertInserted(Array(typed.dropFirst(lists.count)), Self.uniqueNames, "zsh")
  }

  func testFishTabInsertsExactlyTheName() throws {
    let fish = try GeneratorTestSupport.tool("fish", package: "fish")
    let fixture = try makeFixture()
    let setup = """
      source \(completions)/vault.fish; cd $HOME; function __dump; set -l line (commandline); \
      eval "set -g w $line"; printf 'LINE:%s\\nWORD:%s\\n' "$line" "$w[-1]" >> $OUT; end; \
      bind \\ct __dump; echo ok > $READY
      """
    let typed = try typeEach(
      Self.uniqueNames.map(\.typed), argv: [fish, "--no-config", "-i"], setup: setup,
      environment: fixture.environment)
    assertInserted(typed, Self.uniqueNames, "fish")
  }

  /// After `--field`, every shell offers the keys of the entry named before it, in a session
  /// only, and never a guarded entry's.
  func testFieldKeysCompleteAfterField() throws {
    let fixture = try makeFixture()
    let env = fixture.environment
    for (name, extra) in [("site", [String]()), ("locked-site", ["--guard"])] {
      let added = Subprocess.run(
        Sandbox.binDirectory + "/vault", ["add", name] + extra, environment: env,
        stdin: Array("pw\nusername: ada\nurl: https://x.example/\nnote\n".utf8))
      XCTAssertEqual(added.status, 0, added.stderrText)
    }
    let keys = ["password", "username", "url"]
    XCTAssertEqual(try bash(["vault", "get", "site", "--field", ""], environment: env), keys)
    XCTAssertEqual(
      try bash(["vault", "get", "site", "--field", "u"], environment: env), ["username", "url"])
    XCTAssertEqual(try bash(["vault", "set", "site", ""], environment: env), keys)
    XCTAssertEqual(try bash(["vault", "unset", "site", "ur"], environment: env), ["url"])
    XCTAssertEqual(try fish("vault set site ", environment: env).sorted(), keys.sorted())
    XCTAssertEqual(
      try bash(["vault", "get", "locked-site", "--field", ""], environment: env), [])
    XCTAssertEqual(
      try bash(["vault", "get", "site", "--field", ""], environment: fixture.locked), [])
    XCTAssertEqual(try fish("vault get site --field ", environment: env).sorted(), keys.sorted())
    XCTAssertEqual(try fish("vault get site --field ", environment: fixture.locked), [])

    let zsh = try GeneratorTestSupport.tool("zsh", package: "zsh")
    let setup = """
      stty rows 50 cols 200; fpath=(\(completions) $fpath); autoload -Uz compinit; \
      compinit -u -D; cd $HOME; \
      compadd() { local -a hits; if (( ${argv[(I)-[OAD]]} )); then builtin compadd "$@"; \
      return; fi; builtin compadd -O hits "$@"; (( $#hits )) && print -rl -- $hits >> $OUT; \
      builtin compadd "$@"; }; \
      __dump() { print -r -- "LINE:$BUFFER"$'\\n'"WORD:" >> $OUT; }; \
      zle -N __dump; bindkey '^T' __dump; print ok > $READY
      """
    let typed = try typeEach(
      ["vault get site --field "], argv: [zsh, "-f", "-i"], setup: setup, environment: env)
    XCTAssertEqual(typed.first?.candidates.sorted(), keys.sorted())
  }
}
