import Glibc

/// A menu program vault knows how to start for `vault pick`.
public enum KnownMenu: String, CaseIterable, Sendable {
  /// fzf, on the terminal.
  case fzf
  /// rofi's dmenu mode (X11).
  case rofi
  /// wofi's dmenu mode (Wayland).
  case wofi
  /// dmenu (X11).
  case dmenu
  /// bemenu (X11 or Wayland).
  case bemenu

  /// The options that make it read names on standard input and print the chosen one, case
  /// folded where it can, with the prompt `vault`.
  var arguments: [String] {
    switch self {
    case .fzf: ["--prompt", "vault> ", "--no-multi"]
    case .rofi: ["-dmenu", "-i", "-p", "vault"]
    case .wofi: ["--dmenu", "--insensitive", "--prompt", "vault"]
    case .dmenu: ["-i", "-p", "vault"]
    case .bemenu: ["-i", "-p", "vault"]
    }
  }

  /// True when it can show itself here: fzf needs a terminal, wofi a Wayland display, rofi and
  /// dmenu an X display, bemenu either.
  func usable(_ variables: [String: String], hasTerminal: Bool) -> Bool {
    let x11 = !(variables["DISPLAY"] ?? "").isEmpty
    let wayland = !(variables["WAYLAND_DISPLAY"] ?? "").isEmpty
    switch self {
    case .fzf: return hasTerminal
    case .rofi, .dmenu: return x11
    case .wofi: return wayland
    case .bemenu: return x11 || wayland
    }
  }
}

/// `vault pick --menu`: a menu vault knows, or a command of the user's (run by `/bin/sh -c`)
/// that reads names on standard input and prints the chosen one.
public enum PickMenu: ArgumentValue, Equatable {
  /// One of the menus vault knows, started with its options.
  case known(KnownMenu)
  /// The user's own command line.
  case command(String)

  /// A known menu's name, or any other non-blank command line.
  ///
  /// - Throws: `ValueError` for an empty or blank word.
  public init(argument: String, label: String) throws {
    guard argument.contains(where: { !$0.isWhitespace }) else {
      throw ValueError(
        "\(label) needs a menu (\(KnownMenu.allCases.map(\.rawValue).joined(separator: ", ")))"
          + " or a command, not an empty string")
    }
    self = KnownMenu(rawValue: argument).map(PickMenu.known) ?? .command(argument)
  }

  /// The menus vault knows.
  public static var completion: CompletionKind { .values(KnownMenu.allCases.map(\.rawValue)) }
}

/// A menu ready to start: the program, its argv and how it is named in messages.
struct MenuProgram: Equatable {
  /// The executable's path.
  let path: String
  /// argv, its name first.
  let arguments: [String]
  /// `rofi`, or the user's command line in quotes.
  let name: String

  /// The menu to start: `chosen`, or the first known one found on `PATH` that can show itself
  /// here (`KnownMenu.usable`), in the order fzf, rofi, wofi, dmenu, bemenu.
  ///
  /// - Throws: `CommandFailed` when a named menu is not found, or none is.
  static func resolve(
    _ chosen: PickMenu?, _ variables: [String: String], hasTerminal: Bool
  ) throws -> MenuProgram {
    switch chosen {
    case .command(let line):
      return MenuProgram(
        path: "/bin/sh", arguments: ["sh", "-c", line], name: "'\(Output.printable(line))'")
    case .known(let menu):
      guard menu != .fzf || hasTerminal else {
        throw CommandFailed(
          "fzf shows itself on a terminal, and pick runs without one; name another menu with"
            + " --menu (rofi, wofi, dmenu, bemenu)")
      }
      guard let path = ProgramSearch.find(menu.rawValue, variables) else {
        throw CommandFailed("the menu \(menu.rawValue) was not found on PATH")
      }
      return MenuProgram(menu, path: path)
    case nil:
      for menu in KnownMenu.allCases where menu.usable(variables, hasTerminal: hasTerminal) {
        if let path = ProgramSearch.find(menu.rawValue, variables) {
          return MenuProgram(menu, path: path)
        }
      }
      throw CommandFailed(
        "no menu to pick with: install fzf (on a terminal), rofi, wofi, dmenu or bemenu, or name"
          + " a command with --menu")
    }
  }

  private init(path: String, arguments: [String], name: String) {
    self.path = path
    self.arguments = arguments
    self.name = name
  }

  private init(_ menu: KnownMenu, path: String) {
    self.init(path: path, arguments: [menu.rawValue] + menu.arguments, name: menu.rawValue)
  }
}
