import FoundationEssentials
import Glibc

/// Where the vault, the device-side state and sessions live, and which clock is used.
///
/// Built once from the process environment by the command line; tests build it from a dictionary.
public struct VaultEnvironment: Sendable {
  /// The environment variables the paths come from.
  public let variables: [String: String]
  /// The clock used for timestamps, PIN delays and session expiry.
  public let clock: Clock

  /// Reads `HOME`, `XDG_DATA_HOME`, `XDG_STATE_HOME`, `XDG_RUNTIME_DIR` and `VAULT_PATH`.
  public init(variables: [String: String]) {
    self.variables = variables
    self.clock = Clock(variables: variables)
  }

  /// A test-only crash point (`VAULT_TEST_CRASH`, honoured by debug builds only).
  ///
  /// The command kills itself with SIGKILL there, so tests can show what a crash at that point
  /// leaves. The points are `rekey-before-commit` and `rekey-after-commit`;
  /// `rekey-interrupt-after-commit` sends itself SIGINT instead (a Ctrl-C just then); and
  /// `sync-after-merge`, `sync-after-commit` and `sync-after-push`; `device-before-rename` (a
  /// new `device.json` written, not yet renamed into place).
  public var crashPoint: String? {
    #if DEBUG
      variables["VAULT_TEST_CRASH"]
    #else
      nil
    #endif
  }

  /// The longest wait, in seconds, for another process's lock on the vault file:
  /// `FileLockWait.defaultLimit`, or in debug builds `VAULT_TEST_LOCK_WAIT` (seconds) for tests.
  public var lockWaitLimit: Double {
    #if DEBUG
      if let given = variables["VAULT_TEST_LOCK_WAIT"].flatMap(Double.init) { return given }
    #endif
    return FileLockWait.defaultLimit
  }

  private var home: String {
    if let home = variables["HOME"], home.hasPrefix("/") { return home }
    // No HOME (or an empty or relative one): the account's home folder, as the password
    // database has it.
    guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return "/" }
    return String(cString: folder)
  }

  private func xdg(_ name: String, default fallback: String) -> String {
    if let value = variables[name], value.hasPrefix("/") { return value }
    return home + "/" + fallback
  }

  /// `$VAULT_PATH`, else `$XDG_DATA_HOME/vault/vault.db` (`~/.local/share/vault/vault.db`).
  public var defaultVaultPath: String {
    if let path = variables["VAULT_PATH"], !path.isEmpty { return path }
    return xdg("XDG_DATA_HOME", default: ".local/share") + "/vault/vault.db"
  }

  /// `$XDG_CONFIG_HOME/vault` (`~/.config/vault`): the user's settings (`UserConfig`).
  public var configDirectory: String {
    xdg("XDG_CONFIG_HOME", default: ".config") + "/vault"
  }

  /// `$XDG_STATE_HOME/vault` (`~/.local/state/vault`): the device-side store.
  public var stateDirectory: String {
    xdg("XDG_STATE_HOME", default: ".local/state") + "/vault"
  }

  /// `$XDG_RUNTIME_DIR/vault`, else a private folder under the state directory.
  public var sessionDirectory: String {
    if let runtime = variables["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      return runtime + "/vault"
    }
    return stateDirectory + "/sessions"
  }
}

/// Wall-clock and boot-relative time.
///
/// Boot time (`CLOCK_BOOTTIME`) measures session age, so setting the wall clock back never extends
/// a session; the boot id (`/proc/sys/kernel/random/boot_id`) ends sessions at reboot. Debug builds
/// only honour `VAULT_TEST_WALLCLOCK`, `VAULT_TEST_BOOTCLOCK` (seconds) and `VAULT_TEST_BOOT_ID`, so
/// tests can move time without sleeping; release builds ignore them.
public struct Clock: Sendable {
  private let wallOverride: Double?
  private let bootOverride: Double?
  private let bootIDOverride: String?

  /// The clock of a process with these environment variables (only a debug build reads the
  /// test overrides).
  public init(variables: [String: String]) {
    #if DEBUG
      wallOverride = variables["VAULT_TEST_WALLCLOCK"].flatMap(Double.init)
      bootOverride = variables["VAULT_TEST_BOOTCLOCK"].flatMap(Double.init)
      bootIDOverride = variables["VAULT_TEST_BOOT_ID"]
    #else
      wallOverride = nil
      bootOverride = nil
      bootIDOverride = nil
    #endif
  }

  /// Seconds since the Unix epoch.
  public var wallNow: Double { wallOverride ?? Date().timeIntervalSince1970 }

  /// Seconds since boot, including suspend (`CLOCK_BOOTTIME`).
  public var bootNow: Double {
    if let bootOverride { return bootOverride }
    var spec = timespec()
    clock_gettime(CLOCK_BOOTTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  /// The kernel's id for this boot.
  public var bootID: String {
    if let bootIDOverride { return bootIDOverride }
    let raw = (try? PrivateFiles.read("/proc/sys/kernel/random/boot_id")) ?? nil
    guard let raw else { return "unknown" }
    let text = String(decoding: raw, as: UTF8.self).filter { !$0.isWhitespace }
    return text.isEmpty ? "unknown" : text
  }

  /// The current wall-clock time.
  public var date: Date { Date(timeIntervalSince1970: wallNow) }
}
