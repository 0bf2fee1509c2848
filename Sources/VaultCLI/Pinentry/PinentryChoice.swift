import Glibc
import VaultFormat

/// Which pinentry program asks for the PIN when there is no terminal, from the `pinentry`
/// setting (`UserConfig`, vault(1) SECURITY), and what it is told.
enum PinentryChoice {
  /// The variables of the client's display session handed to the pinentry, in its environment
  /// and as Assuan options, as gpg-agent does per request.
  static let displayVariables = [
    "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "XDG_SESSION_TYPE",
  ]

  /// The program for `setting`, or nil when none can ask here.
  ///
  /// Its own for `.program` (none when it draws on a terminal and there is none), none for
  /// `.tty`, and for `.auto` the first of `PinentrySetting.candidates` in /usr/bin that this
  /// user can run, passing over one that needs a terminal (`pinentry-tty`, `pinentry-curses`,
  /// or `pinentry` pointing at one) unless `terminalName` gives it one; with neither a terminal
  /// nor a display in `variables` (`DISPLAY`, `WAYLAND_DISPLAY`: a cron job), none.
  static func program(
    for setting: PinentrySetting, terminalName: String?, variables: [String: String]
  ) -> String? {
    switch setting {
    case .tty: return nil
    case .program(let path):
      // One that draws on a terminal cannot ask where there is none (new-user review: a
      // pinentry-tty named in the settings ended as if cancelled).
      return terminalName == nil && needsTerminal(path) ? nil : path
    case .auto:
      guard terminalName != nil || hasDisplay(variables) else { return nil }
      for name in PinentrySetting.candidates {
        let path = "/usr/bin/" + name
        guard access(path, X_OK) == 0 else { continue }
        if terminalName == nil, needsTerminal(path) { continue }
        return path
      }
      return nil
    }
  }

  /// True when `variables` name a display a graphical pinentry can show itself on.
  static func hasDisplay(_ variables: [String: String]) -> Bool {
    !(variables["DISPLAY"] ?? "").isEmpty || !(variables["WAYLAND_DISPLAY"] ?? "").isEmpty
  }

  /// The hint for a command that found no terminal and no session on a desktop, when the
  /// reason is the pinentry setting: `tty`, or `auto` with no pinentry installed; nil
  /// otherwise (not on a desktop, a terminal, a program named).
  static func missingHint(_ context: Context) -> String? {
    let variables = context.environment.variables
    guard context.terminal == nil, hasDisplay(variables),
      let config = try? UserConfig.read(context.environment)
    else { return nil }
    switch PinentrySetting(stored: config[.pinentry]) {
    case .tty:
      return "pinentry is set to tty, so the PIN is asked only on a terminal: run 'vault unlock' on"
        + " one, or let a pinentry ask with 'vault config --global pinentry auto'"
    case .program(let path) where needsTerminal(path):
      return "pinentry is set to \(path), which asks on a terminal only: name one for your"
        + " desktop with 'vault config --global pinentry PATH' (or 'auto'), or run 'vault unlock'"
        + " on a terminal"
    case .auto where program(for: .auto, terminalName: nil, variables: variables) == nil:
      return "no pinentry program was found in /usr/bin: install one (pinentry-gnome3,"
        + " pinentry-qt or pinentry-gtk2) or name one with 'vault config --global pinentry"
        + " PATH'; or run 'vault unlock' on a terminal"
    default: return nil
    }
  }

  /// True when the program `path` (after its links) draws on a terminal.
  static func needsTerminal(_ path: String) -> Bool {
    guard let resolved = realpath(path, nil) else { return true }
    defer { free(resolved) }
    let name = String(cString: resolved).split(separator: "/").last.map(String.init) ?? ""
    return name.hasPrefix("pinentry-tty") || name.hasPrefix("pinentry-curses")
  }

  /// The Assuan options for a client whose environment is `variables` and whose terminal, if
  /// any, is `terminalName`: `ttyname`, `ttytype`, `lc-ctype`, `display`.
  static func options(_ variables: [String: String], terminalName: String?) -> [String] {
    var out: [String] = []
    if let terminalName {
      out.append("ttyname=" + terminalName)
      if let type = variables["TERM"], !type.isEmpty { out.append("ttytype=" + type) }
    }
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { variables[$0] }.first {
      !$0.isEmpty
    }
    if let locale { out.append("lc-ctype=" + locale) }
    if let display = variables["DISPLAY"], !display.isEmpty { out.append("display=" + display) }
    return out
  }

  /// The variables a pinentry gets besides the display's: where it finds itself, its locale
  /// and terminal type, whose it is.
  static let plainVariables = ["HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TERM"]

  /// Makes this process's environment the one the pinentry inherits.
  ///
  /// It is `PATH=/usr/bin:/bin` and the client's `plainVariables`, `LC_*` and
  /// `displayVariables`; nothing else (the agent's own environment, which may hold what a
  /// program `vault run` started passed on, stays out). Called in the agent's worker, a process
  /// of its own for this one request.
  static func prepareEnvironment(from variables: [String: String]) {
    clearenv()
    setenv("PATH", "/usr/bin:/bin", 1)
    for (name, value) in variables
    where plainVariables.contains(name) || displayVariables.contains(name)
      || name.hasPrefix("LC_")
    {
      setenv(name, value, 1)
    }
  }
}
