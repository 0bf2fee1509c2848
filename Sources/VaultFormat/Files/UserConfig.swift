#if canImport(Glibc)
  import Glibc
#endif

/// The user's settings for every vault: `$XDG_CONFIG_HOME/vault/config` (vault(1) FILES),
/// one `KEY = VALUE` a line, `#` starting a comment, as `vault config --global` writes it.
///
/// It names a program that is handed the PIN (`pinentry`), so it is read only when it and its
/// folder are this user's with no permission for anyone else (`FileSafety`, exit 19).
public struct UserConfig: Equatable, Sendable {
  /// A key of the file.
  public enum Key: String, CaseIterable, Sendable {
    /// The program that asks for the PIN when there is no terminal: an absolute path, `tty`
    /// (never one), or absent (look for one in /usr/bin).
    case pinentry
    /// The folder whose entries named `HOST` or `HOST/PATH` serve git's credential requests
    /// (`vault credential`); `git` when not set.
    case credentialFolder = "credential.folder"

    /// True when `value` is one this key takes.
    ///
    /// For `pinentry`, `auto`, `tty` or an absolute path (never one relative to wherever a
    /// command runs); for `credential.folder`, a folder of entry names, with no slash at either
    /// end. No control character in either.
    public func accepts(_ value: String) -> Bool {
      guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
        return false
      }
      switch self {
      case .pinentry: return value == "auto" || value == "tty" || value.hasPrefix("/")
      case .credentialFolder:
        return !value.hasPrefix("/") && !value.hasSuffix("/")
          && (try? EntryName(value + "/x")) != nil
      }
    }
  }

  /// Why the file was refused: its path, the line (from 1) and what is wrong.
  public struct Fault: Error, Equatable, Sendable {
    /// What is wrong with a line.
    public enum Problem: Equatable, Sendable {
      /// The file is not UTF-8 text.
      case notText
      /// The line is not `KEY = VALUE`.
      case notKeyValue
      /// The key is not one vault knows.
      case unknownKey(String)
      /// The key was given on an earlier line too.
      case repeatedKey(Key)
      /// The value is not one the key takes (`Key.accepts`).
      case invalidValue(Key)
    }

    /// The file.
    public let path: String
    /// The line, from 1; 0 for the whole file.
    public let line: Int
    /// What is wrong.
    public let problem: Problem
  }

  /// The values set, by key.
  public private(set) var values: [Key: String] = [:]

  /// No value set.
  public init() {}

  /// The file of `environment`: `$XDG_CONFIG_HOME/vault/config` (`~/.config/vault/config`).
  public static func path(_ environment: VaultEnvironment) -> String {
    environment.configDirectory + "/config"
  }

  /// The value of `key`, or nil when it is not set.
  public subscript(_ key: Key) -> String? {
    get { values[key] }
    set { values[key] = newValue }
  }

  /// Reads the file of `environment`; an absent file (or folder) sets nothing.
  ///
  /// - Throws: `VaultError.unsafePermissions` (exit 19) when the file or its folder is not this
  ///   user's alone; `Fault` for a line that is not `KEY = VALUE` of a known key;
  ///   `VaultError.storage` when it cannot be read.
  public static func read(_ environment: VaultEnvironment) throws -> UserConfig {
    let path = path(environment)
    var info = stat()
    guard lstat(environment.configDirectory, &info) == 0 else { return UserConfig() }
    try FileSafety.checkPrivateFolder(environment.configDirectory)
    guard lstat(path, &info) == 0 else { return UserConfig() }
    try FileSafety.checkPrivateFile(path)
    guard let bytes = try PrivateFiles.read(path) else { return UserConfig() }
    return try parse(bytes, path: path)
  }

  /// Reads `bytes` as the file at `path` (named in a fault).
  ///
  /// - Throws: `Fault`.
  public static func parse(_ bytes: [UInt8], path: String) throws -> UserConfig {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw Fault(path: path, line: 0, problem: .notText)
    }
    var config = UserConfig()
    // "\r\n" is one Character: each line ends at either.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for (index, raw) in lines.enumerated() {
      let line = raw.trimmingBlanks
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw Fault(path: path, line: index + 1, problem: .notKeyValue)
      }
      let name = line[..<equals].trimmingBlanks
      let value = line[line.index(after: equals)...].trimmingBlanks
      guard !name.isEmpty, !value.isEmpty else {
        throw Fault(path: path, line: index + 1, problem: .notKeyValue)
      }
      guard let key = Key(rawValue: name) else {
        throw Fault(path: path, line: index + 1, problem: .unknownKey(name))
      }
      guard config.values[key] == nil else {
        throw Fault(path: path, line: index + 1, problem: .repeatedKey(key))
      }
      guard key.accepts(value) else {
        throw Fault(path: path, line: index + 1, problem: .invalidValue(key))
      }
      config.values[key] = value
    }
    return config
  }

  /// The file's text for these values, made from `existing` (the file as `parse` checked it).
  ///
  /// Its comments, blank lines and order are kept, a key's line changed where its value changed
  /// and dropped where it is no longer set, a newly set key added at the end. Without an
  /// existing file: a comment and each value set, in the order of `Key`.
  public func text(editing existing: String?) -> String {
    var out = ""
    var written: Set<Key> = []
    let lines =
      existing.map { text in
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
      } ?? ["# vault's settings for every vault of yours: vault config --global KEY VALUE"]
    for (index, line) in lines.enumerated() {
      if index == lines.count - 1 && line.isEmpty && existing != nil { break }
      let trimmed = line.trimmingBlanks
      if !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "="),
        let key = Key(rawValue: trimmed[..<equals].trimmingBlanks)
      {
        written.insert(key)
        guard let value = values[key] else { continue }
        let kept = trimmed[trimmed.index(after: equals)...].trimmingBlanks == value
        out += (kept ? String(line) : "\(key.rawValue) = \(value)") + "\n"
        continue
      }
      out += line + "\n"
    }
    for key in Key.allCases where !written.contains(key) {
      if let value = values[key] { out += "\(key.rawValue) = \(value)\n" }
    }
    return out
  }

  /// Writes the file of `environment` atomically (mode 0600, its folder 0700), keeping what the
  /// file held besides the values (`text(editing:)`).
  ///
  /// A file that is a symbolic link (a dotfiles manager's) stays one: the file it names is
  /// written, once `FileSafety.checkPrivateFile` accepts it, as git writes through a linked
  /// `~/.gitconfig`.
  ///
  /// - Throws: `VaultError.unsafePermissions` for a folder others could use or a file `read`
  ///   refuses; `Fault` for a file that is no longer valid; `.storage` when it cannot be
  ///   written or its link cannot be followed.
  public func write(_ environment: VaultEnvironment) throws {
    try PrivateFiles.ensurePrivateDirectory(environment.configDirectory)
    var target = Self.path(environment)
    var existing: String?
    var info = stat()
    if lstat(target, &info) == 0 {
      try FileSafety.checkPrivateFile(target)
      if info.st_mode & S_IFMT == S_IFLNK {
        guard let resolved = realpath(target, nil) else {
          throw VaultError.storage(.file(.follow, path: target))
        }
        target = String(cString: resolved)
        free(resolved)
      }
      if let bytes = try PrivateFiles.read(target) {
        _ = try Self.parse(bytes, path: target)
        existing = String(decoding: bytes, as: UTF8.self)
      }
    }
    try PrivateFiles.atomicWrite(Array(text(editing: existing).utf8), to: target)
  }
}
