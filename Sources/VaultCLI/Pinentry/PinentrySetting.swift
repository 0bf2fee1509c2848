import Glibc
import VaultFormat

/// The `pinentry` setting of `UserConfig`: which program asks for the PIN when there is no
/// terminal (vault(1) SECURITY names it a trust root, as gpg-agent's `pinentry-program`).
enum PinentrySetting: Equatable, CustomStringConvertible {
  /// Not set: the first of `PinentrySetting.candidates` found in /usr/bin that can show
  /// itself.
  case auto
  /// Never one: without a terminal the PIN cannot be asked (exit 10).
  case tty
  /// This program, by absolute path.
  case program(String)

  /// The programs `auto` looks for, in this order, in /usr/bin only.
  static let candidates = [
    "pinentry-gnome3", "pinentry-qt", "pinentry-gtk-2", "pinentry-gtk2", "pinentry",
  ]

  /// The setting as stored (nil for `auto`, which is the absence of a value).
  var stored: String? {
    switch self {
    case .auto: nil
    case .tty: "tty"
    case .program(let path): path
    }
  }

  /// As `vault config --global pinentry` prints it.
  var description: String { stored ?? "auto" }

  /// The stored value, unchecked (it is checked again before each use).
  init(stored: String?) {
    switch stored {
    case nil, "auto": self = .auto
    case "tty": self = .tty
    case let path?: self = .program(path)
    }
  }

  /// A value given to `vault config --global pinentry`: `auto`, `tty`, or the absolute path of
  /// an executable program that only this user or root can change.
  ///
  /// - Throws: `InputRefused` (exit 5) for anything else; `VaultError.unsafePermissions`
  ///   (exit 19) for a program or folder others could change; `.storage` for a path that does
  ///   not exist.
  init(setting text: String) throws {
    switch text {
    case "auto": self = .auto
    case "tty": self = .tty
    default:
      guard text.hasPrefix("/"), UserConfig.Key.pinentry.accepts(text) else {
        throw InputRefused(
          "pinentry is the absolute path of a pinentry program, tty or auto, not"
            + " '\(Output.printable(text))'")
      }
      try Self.checkProgram(text)
      self = .program(text)
    }
  }

  /// Refuses a program others could change, or one this user cannot run.
  ///
  /// - Returns: the program's real path, which is what runs (never the path as configured,
  ///   whose links could change after the check).
  /// - Throws: as `FileSafety.checkTrustedProgram`; `InputRefused` when it is not executable.
  @discardableResult
  static func checkProgram(_ path: String) throws -> String {
    var info = stat()
    guard path.hasPrefix("/"), stat(path, &info) == 0 else {
      throw InputRefused("there is no program at \(Output.printable(path))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw InputRefused("\(Output.printable(path)) is not a program you can run")
    }
    let real = try FileSafety.checkTrustedProgram(path)
    guard access(real, X_OK) == 0 else {
      throw InputRefused("\(Output.printable(path)) is not a program you can run")
    }
    return real
  }
}
