import FoundationEssentials
import Glibc
import VaultCore
import VaultFormat

// The tour's child, for the signal handler: it stops the child's whole process group and lets
// the main flow clean up.
nonisolated(unsafe) private var tourChild: pid_t = 0
nonisolated(unsafe) private var tourSignal: Int32 = 0

private func stopTour(_ signal: Int32) {
  tourSignal = signal
  if tourChild > 0 { kill(-tourChild, SIGTERM) }
}

/// `vault tour`: the whole story on a throwaway vault and simulated device in a temporary folder,
/// run by bash through the built binaries, each command shown before its output.
enum Tour {
  /// The demo PIN, given to the binaries through `--pin-fd 3` from a file in the temporary folder.
  static let demoPIN = "4711-demo"

  static let script = #"""
    set -u
    # The command, then what it printed, then its exit status unless it is 0; a command that
    # prints nothing when it succeeds (quiet) always shows its status, so no step is empty.
    run_step() {
      always=$1; expected=$2; shift 2
      printf '\n$ %s\n' "$*"
      eval "$*"
      rc=$?
      [ "$rc" = 0 ] && [ "$always" = 0 ] || printf '[exit %s]\n' "$rc"
      if [ "$rc" != "$expected" ]; then
        printf 'tour: expected exit %s, got %s\n' "$expected" "$rc" >&2
        exit 1
      fi
    }
    step() { run_step 0 "$@"; }
    quiet() { run_step 1 "$@"; }
    echo '# A throwaway vault and a simulated sensor in '"$TOUR_DIR"'; the PIN comes from a file.'
    step 0 'biosim status'
    step 0 'biosim enroll --label right-index'
    step 0 'biosim next match'
    step 0 'vault init --kdf interactive --pin-fd 3 3<"$PIN_FILE"'
    step 0 'vault status'
    echo
    echo '# A diary entry needs no PIN: it is sealed to the vault public key.'
    step 0 'printf "Walked to the river at dawn.\nTold no one.\n" | vault journal'
    step 0 'biosim next match'
    quiet 0 'printf "correct horse battery staple" | vault add mail/work --pin-fd 3 3<"$PIN_FILE"'
    echo
    echo '# Unlock once (PIN, then a match): the agent holds the key for every shell.'
    step 0 'biosim next match'
    step 0 'vault unlock --pin-fd 3 3<"$PIN_FILE"'
    quiet 0 'vault status --check'
    step 0 'vault list'
    step 0 'vault journal show today | grep -n river'
    step 0 'vault get mail/work | wc -c'
    echo
    echo '# Entries follow the pass convention: the password first, then KEY: VALUE fields.'
    quiet 0 'printf "hunter2\nusername: ada\notp: otpauth://totp/web?secret=JBSWY3DPEHPK3PXP\n" | vault add web/example'
    step 0 'vault get web/example --field username'
    step 0 'vault otp web/example | wc -c'
    step 0 'vault list --tree'
    step 0 'vault find wex'
    step 1 'vault audit web/'
    echo
    echo '# Someone enrolls another finger: the domain state changes. The agent checks its key'
    echo '# against the sealed one before it asks for anything, and finds the change.'
    step 0 'biosim enroll --label left-index'
    step 15 'vault unlock --pin-fd 3 3<"$PIN_FILE"'
    step 15 'vault get mail/work'
    step 0 'vault biometry status'
    echo
    echo '# The owner re-activates with the PIN and a match, then unlocks again.'
    step 0 'biosim next match'
    step 0 'vault biometry activate --pin-fd 3 3<"$PIN_FILE"'
    step 0 'biosim next match'
    step 0 'vault unlock --pin-fd 3 3<"$PIN_FILE"'
    step 0 'vault journal show today'
    step 0 'vault lock'
    step 10 'vault status --check'
    step 10 'vault get mail/work'
    echo
    echo '# Tour complete: every step gave the exit status shown.'
    """#

  /// The path of the run's `vault` program (`RunScope.executable`, with `/proc/self/exe` read
  /// to the file it names), for a child's `argv[0]` and a shell's `PATH`.
  ///
  /// - Throws: `CommandFailed` when `/proc/self/exe` cannot be read.
  static func executablePath() throws -> String {
    let executable = RunScope.current.executable
    guard executable == "/proc/self/exe" else { return executable }
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(executable, &buffer, buffer.count - 1)
    guard n > 0 else { throw CommandFailed("cannot find the vault executable") }
    return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// `vault tour`.
struct TourCommand: VaultCommand {
  static let about = CommandAbout(
    "tour", "Run every command on a throwaway vault and show what it does.",
    discussion: """
      Creates a vault and a simulated sensor in a temporary folder, touching nothing of \
      yours, and runs a scripted story through the built binaries: init, enrollment, \
      activation, a journal entry piped in, unlock, read back in a pipeline, a field, a \
      one-time code, the tree, a fuzzy find and an audit, an enrollment change refused \
      with exit 15, re-activation and unlock again.
      """)

  func run(_ context: Context) throws -> Int32 {
    let bin = URL(fileURLWithPath: try Tour.executablePath()).deletingLastPathComponent().path
    guard access(bin + "/biosim", X_OK) == 0 else {
      throw CommandFailed(
        "the tour needs biosim beside vault in \(bin); install both binaries together")
    }
    let tmp = context.environment.variables["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    var template = Array("\(tmp ?? "/tmp")/vault-tour-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { $0.baseAddress.flatMap { mkdtemp($0) } }
    guard made != nil else {
      throw CommandFailed("cannot create a temporary folder in \(tmp ?? "/tmp")")
    }
    let dir = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try PrivateFiles.atomicWrite(Array((Tour.demoPIN + "\n").utf8), to: dir + "/pin")
    try PrivateFiles.ensureDirectory(dir + "/run")
    let environment = [
      "HOME": dir, "XDG_DATA_HOME": dir + "/data", "XDG_STATE_HOME": dir + "/state",
      "XDG_RUNTIME_DIR": dir + "/run", "TOUR_DIR": dir, "PIN_FILE": dir + "/pin",
      "PATH": bin + ":/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
      "TZ": context.environment.variables["TZ"] ?? "UTC",
    ]
    let saved = SavedSignals([SIGINT, SIGTERM, SIGHUP])
    for number in saved.numbers { signal(number, stopTour) }
    defer { saved.restore() }
    guard
      let child = Subprocess.startInheriting(
        "/bin/bash", ["-c", Tour.script], environment: environment)
    else { throw CommandFailed("cannot start /bin/bash") }
    tourChild = child
    let status = Subprocess.wait(child)
    tourChild = 0
    // Interrupted: the folder (and its demo PIN) goes, and the exit code says which signal.
    if tourSignal != 0 { return 128 + tourSignal }
    if status == Output.brokenPipe { return Output.brokenPipe }
    return status == 0 ? 0 : 1
  }
}
