import VaultCore
import VaultFormat

/// What one run of `vault` or `biosim` keeps while it runs, and nothing after: the program's
/// name for messages, the terminal it may ask on, the hooks around its first byte of output, and
/// whether it asked the sensor.
///
/// The entry points bind a fresh scope for each run (`RunScope.$current.withValue`), so runs in
/// one process (the in-process test harness runs many) share nothing. A run is one thread: the
/// scope is mutated only by the thread that bound it.
final class RunScope: @unchecked Sendable {
  /// The scope of the run on this thread; the default belongs to no run.
  @TaskLocal static var current = RunScope(programName: "vault")

  /// The name errors are reported under (`vault` or `biosim`).
  let programName: String
  /// The controlling terminal's path (`/dev/tty`); nil for a run with no terminal at all.
  let terminalPath: String?
  /// The `vault` program the run starts for its background jobs (the agent, a background sync):
  /// this process's own executable, `/proc/self/exe`, unless the run is hosted by another
  /// program (the in-process test harness names the built binary).
  let executable: String
  /// Called once, just before the run's first byte to standard output (an agent's worker tells
  /// its client that output began); nil once called.
  var beforeFirstWrite: (() -> Void)?
  /// Called once, after the run's first write to standard output: a test's crash point in an
  /// agent's worker (`VAULT_TEST_CRASH=agent-after-output`, debug builds only).
  var afterFirstWrite: (() -> Void)?
  /// The sensor, once the run asked it something: `vault` then says on standard error, as it
  /// ends, when answers queued with `biosim next` are still waiting.
  var sensorConsulted: (store: DeviceStore, clock: Clock)?
  /// Set for a command that prints nothing on standard error (completion): no note then.
  var quiet = false
  /// `Vault.committedWrites` as the run began: a run that ends above it changed something to
  /// sync.
  let writesAtStart = Vault.committedWrites

  /// A scope for one run.
  ///
  /// - Parameters:
  ///   - programName: `vault` or `biosim`.
  ///   - terminalPath: the terminal to open for prompts; nil for none.
  ///   - executable: the `vault` program background jobs run.
  init(
    programName: String, terminalPath: String? = "/dev/tty", executable: String = "/proc/self/exe"
  ) {
    self.programName = programName
    self.terminalPath = terminalPath
    self.executable = executable
  }
}
