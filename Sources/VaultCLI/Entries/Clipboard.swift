import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault get --clip`: copy a secret to the clipboard with `wl-copy` (Wayland), `xclip` or
/// `xsel` (X11), then clear it after `--clip-time` seconds (45 by default) if it still holds
/// that secret.
///
/// The clearing runs in a detached child (`vault __clip-clear`, in its own session, with no
/// standard output), so the command returns at once. The child gets the secret through a pipe
/// into guarded memory, never through argv or the environment, after the copy's token
/// (`ClipboardOwner`): a later copy, even of the same secret, is left to its own clearer.
enum Clipboard {
  /// Default seconds before the clipboard is cleared.
  static let defaultSeconds = 45
  /// Accepted `--clip-time` values.
  static let seconds = 1...3600

  /// A clipboard program and how to copy, paste and clear with it.
  enum Tool: String, CaseIterable, Sendable {
    case wlCopy = "wl-copy"
    case xclip
    case xsel

    var copy: (program: String, arguments: [String]) {
      switch self {
      case .wlCopy: ("wl-copy", [])
      case .xclip: ("xclip", ["-selection", "clipboard", "-in"])
      case .xsel: ("xsel", ["--clipboard", "--input"])
      }
    }

    var paste: (program: String, arguments: [String]) {
      switch self {
      case .wlCopy: ("wl-paste", ["--no-newline"])
      case .xclip: ("xclip", ["-selection", "clipboard", "-out"])
      case .xsel: ("xsel", ["--clipboard", "--output"])
      }
    }

    /// Clearing: an empty selection for xclip (it has no clear option).
    var clear: (program: String, arguments: [String]) {
      switch self {
      case .wlCopy: ("wl-copy", ["--clear"])
      case .xclip: ("xclip", ["-selection", "clipboard", "-in"])
      case .xsel: ("xsel", ["--clipboard", "--clear"])
      }
    }
  }

  /// The first usable tool: `wl-copy` under Wayland, else `xclip` or `xsel` under X11.
  ///
  /// - Throws: `CommandFailed` naming what is missing.
  static func tool(_ variables: [String: String]) throws -> Tool {
    let wayland = !(variables["WAYLAND_DISPLAY"] ?? "").isEmpty
    let x11 = !(variables["DISPLAY"] ?? "").isEmpty
    if wayland, ProgramSearch.find("wl-copy", variables) != nil,
      ProgramSearch.find("wl-paste", variables) != nil
    {
      return .wlCopy
    }
    if x11,
      let tool = [Tool.xclip, .xsel].first(where: {
        ProgramSearch.find($0.rawValue, variables) != nil
      })
    {
      return tool
    }
    if !wayland && !x11 {
      throw CommandFailed("no clipboard: neither WAYLAND_DISPLAY nor DISPLAY is set")
    }
    throw CommandFailed(
      "no clipboard tool found: install wl-clipboard (Wayland), or xclip or xsel (X11)")
  }

  /// The option that marks a copy as a secret, when the tool at `path` has one.
  ///
  /// That is a `wl-copy` whose help lists `--sensitive` (it offers
  /// `x-kde-passwordManagerHint: secret`, so clipboard managers keep the copy out of their
  /// history). xclip and xsel offer one target per copy, so they cannot.
  static func secretHint(_ tool: Tool, path: String, _ variables: [String: String]) -> [String] {
    guard tool == .wlCopy else { return [] }
    var help = Subprocess.run(
      path, ["--help"], environment: ChildHygiene.environment(variables))
    defer { wipe(&help.stdout) }
    let text = String(decoding: help.stdout, as: UTF8.self)
    return text.contains("--sensitive") ? ["--sensitive"] : []
  }

  /// Copies `secret` and starts the detached clearer, which clears it after `seconds`
  /// (`--clip-time`; nil: `defaultSeconds`); `what` names it in the message (`the password of
  /// 'name'`), `'name'` by default.
  ///
  /// - Throws: `CommandFailed` when no tool works.
  static func copy(
    _ secret: SecureBytes, name: EntryName, what: String? = nil, seconds: Int?, context: Context
  ) throws {
    let seconds = seconds ?? defaultSeconds
    let variables = context.environment.variables
    let tool = try tool(variables)
    let (program, arguments) = tool.copy
    let path = ProgramSearch.find(program, variables) ?? program
    let copier = try ClipboardProcess.start(
      path, arguments + secretHint(tool, path: path, variables), environment: variables,
      detach: false)
    let status = copier.finish(input: secret)
    guard status == 0 else {
      throw CommandFailed("\(program) failed with status \(status); nothing was copied")
    }
    let token = ClipboardOwner.claim(context.environment)
    let clearer = try ClipboardProcess.start(
      try Tour.executablePath(), ["__clip-clear", tool.rawValue, "--clip-time", "\(seconds)"],
      environment: variables, detach: true)
    var input = ByteBuilder()
    input.append(UInt8(token.count))
    input.append(token)
    input.append(secret)
    clearer.feed(input: input.finish())
    Output.error(
      "Copied \(what ?? "'\(Output.printable(name.value))'") to the clipboard"
        + " (\(tool.rawValue)); it is cleared in \(seconds) s unless replaced.")
  }

}
