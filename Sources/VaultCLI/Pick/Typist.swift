import Glibc
import VaultCrypto
import VaultFormat

/// A program that types text as if from the keyboard, for `vault pick --type`.
enum TypingTool: String, CaseIterable, Sendable {
  /// X11, through the XTEST extension; it also finds and focuses windows.
  case xdotool
  /// Wayland, through the virtual-keyboard protocol.
  case wtype
  /// Either, through the kernel's uinput (its daemon must run).
  case ydotool
}

/// Types a secret into the window that had the focus when `vault pick` opened its menu.
///
/// Text goes to the tool on its standard input (`xdotool type --file -`, `wtype -`, `ydotool
/// type --file -`), never in argv. Only xdotool can name windows: with it, the focused window is
/// noted before the menu opens and given the focus again after the menu closed, and nothing is
/// typed when it is gone. Under Wayland no client can see other windows: the text goes where the
/// compositor puts the focus when the menu closes.
struct Typist {
  /// The tool.
  let tool: TypingTool
  /// Its path.
  let path: String
  /// Its environment (the client's, without vault's variables).
  let environment: [String: String]

  /// Seconds to wait for the focus to come back to the noted window.
  static let refocusSeconds = 1.0

  /// The tool for this display: wtype, else ydotool, under Wayland; xdotool, else ydotool, under
  /// X11.
  ///
  /// - Throws: `CommandFailed` naming what is missing.
  static func find(_ variables: [String: String]) throws -> Typist {
    let wayland = !(variables["WAYLAND_DISPLAY"] ?? "").isEmpty
    let x11 = !(variables["DISPLAY"] ?? "").isEmpty
    guard wayland || x11 else {
      throw CommandFailed("nothing to type into: neither WAYLAND_DISPLAY nor DISPLAY is set")
    }
    let order: [TypingTool] = wayland ? [.wtype, .ydotool] : [.xdotool, .ydotool]
    for tool in order {
      if let path = ProgramSearch.find(tool.rawValue, variables) {
        return Typist(tool: tool, path: path, environment: ChildHygiene.environment(variables))
      }
    }
    throw CommandFailed(
      wayland
        ? "no typing tool found: install wtype (or ydotool)"
        : "no typing tool found: install xdotool (or ydotool)")
  }

  /// The window that has the keyboard focus, as xdotool names it; nil for the other tools, which
  /// cannot say.
  ///
  /// - Throws: `CommandFailed` when xdotool finds no focused window, or finds the terminal pick
  ///   runs in (its `WINDOWID`): typed there, an autotype's Enter would run the password as a
  ///   command and keep it in the shell's history.
  func focusedWindow() throws -> String? {
    guard tool == .xdotool else { return nil }
    guard let window = xdotool(["getwindowfocus"]) else {
      throw CommandFailed("no window has the keyboard focus, so there is nothing to type into")
    }
    if let terminal = environment["WINDOWID"], terminal == window {
      throw CommandFailed(
        "the window with the focus is the terminal pick runs in; --type and --autotype type"
          + " into the window you were in when a launcher key ran pick: use --clip or --print"
          + " here")
    }
    return window
  }

  /// Checks that `window` (xdotool's) still has the keyboard focus, between the steps of a
  /// typing; nothing for the other tools, which cannot say.
  ///
  /// - Throws: `CommandFailed` when the focus moved: what follows is not typed.
  func checkFocus(_ window: String?) throws {
    guard let window, tool == .xdotool else { return }
    guard xdotool(["getwindowfocus"]) == window else {
      throw CommandFailed("the focus moved to another window while typing; the rest was not typed")
    }
  }

  /// Gives the focus back to `window` (xdotool), waiting up to `refocusSeconds` for it.
  ///
  /// - Throws: `CommandFailed` when the window is gone or does not take the focus; nothing was
  ///   typed.
  func refocus(_ window: String) throws {
    guard
      Subprocess.run(path, ["getwindowname", window], environment: environment, detach: false)
        .status == 0
    else {
      throw CommandFailed(
        "the window that had the focus when the menu opened is gone; nothing was typed")
    }
    if xdotool(["getwindowfocus"]) == window { return }
    // A window manager activates (raises and focuses); without one, the focus is set directly.
    _ = xdotool(["windowactivate", window])
    _ = xdotool(["windowfocus", window])
    let clock = VaultFormat.Clock(variables: [:])
    let deadline = clock.bootNow + Self.refocusSeconds
    while clock.bootNow < deadline {
      if xdotool(["getwindowfocus"]) == window { return }
      usleep(20_000)
    }
    throw CommandFailed(
      "the window that had the focus when the menu opened did not take it back; nothing was"
        + " typed")
  }

  /// Types `text`.
  ///
  /// - Throws: `CommandFailed` when the tool fails.
  func type(_ text: SecureBytes) throws {
    let arguments: [String] =
      switch tool {
      case .xdotool: ["type", "--clearmodifiers", "--file", "-"]
      case .wtype: ["-"]
      case .ydotool: ["type", "--file", "-"]
      }
    try run(arguments, input: text)
  }

  /// A key a form is filled with.
  enum Key {
    /// Tab, to the next field.
    case tab
    /// Return, to send the form.
    case enter
  }

  /// Presses `key`.
  ///
  /// - Throws: `CommandFailed` when the tool fails.
  func press(_ key: Key) throws {
    switch (tool, key) {
    case (.xdotool, .tab): try run(["key", "--clearmodifiers", "Tab"], input: nil)
    case (.xdotool, .enter): try run(["key", "--clearmodifiers", "Return"], input: nil)
    case (.wtype, .tab): try run(["-k", "Tab"], input: nil)
    case (.wtype, .enter): try run(["-k", "Return"], input: nil)
    // ydotool's key names changed between its releases; its `type` sends both characters.
    case (.ydotool, .tab): try run(["type", "--file", "-"], input: SecureBytes(copying: [9]))
    case (.ydotool, .enter): try run(["type", "--file", "-"], input: SecureBytes(copying: [10]))
    }
  }

  /// True when this tool types every character of `text` as it is: for wtype (which sends any
  /// character through a keymap of its own), UTF-8 without control characters (a tab or line
  /// break would move on or send the form midway); for xdotool and ydotool, printable ASCII
  /// only (xdotool's other characters go through a keymap it changes on the fly, and come out
  /// in the wrong case or not at all in some programs; ydotool knows a US layout only).
  func canType(_ text: SecureBytes) -> Bool {
    guard tool == .wtype else {
      return text.withBytes { bytes in bytes.allSatisfy { (0x20...0x7E).contains($0) } }
    }
    return text.withBytes { bytes in
      var iterator = bytes.makeIterator()
      var decoder = Unicode.UTF8()
      while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
          if scalar.properties.generalCategory == .control { return false }
        case .emptyInput: return true
        case .error: return false
        }
      }
    }
  }

  /// What this tool cannot type, in a note: "control characters" or "characters other than
  /// printable ASCII".
  var untypeable: String {
    tool == .wtype
      ? "control characters, or bytes that are not UTF-8" : "characters other than printable ASCII"
  }

  /// Runs xdotool with `arguments`, its error output on /dev/null; its first output line, or nil
  /// when it fails.
  private func xdotool(_ arguments: [String]) -> String? {
    let result = Subprocess.run(path, arguments, environment: environment, detach: false)
    guard result.status == 0 else { return nil }
    let line = result.stdoutText.split(separator: "\n").first.map(String.init) ?? ""
    return line.isEmpty ? nil : line
  }

  /// Runs the tool with `input` on its standard input (/dev/null when nil) and its outputs on
  /// /dev/null.
  private func run(_ arguments: [String], input: SecureBytes?) throws {
    let process = try ClipboardProcess.start(
      path, arguments, environment: environment, detach: false)
    let status = process.finish(input: input ?? SecureBytes(count: 0))
    guard status == 0 else {
      throw CommandFailed("\(tool.rawValue) failed with status \(status); typing stopped")
    }
  }
}
