import Foundation
import Glibc
import VaultCore

/// `vault tour`: the whole story on a throwaway vault and simulated device in a temporary folder,
/// run by bash through the built binaries, each command shown before its output.
enum Tour {
  /// The demo PIN, given to the binaries through `--pin-fd 3` from a file in the temporary folder.
  static let demoPIN = "4711-demo"

  static let script = #"""
    set -u
    step() {
      expected=$1; shift
      printf '\n$ %s\n' "$*"
      eval "$*"
      rc=$?
      [ "$rc" = 0 ] || printf '[exit %s]\n' "$rc"
      if [ "$rc" != "$expected" ]; then
        printf 'tour: expected exit %s, got %s\n' "$expected" "$rc" >&2
        exit 1
      fi
    }
    echo '# A throwaway vault and a simulated sensor in '"$TOUR_DIR"'; the PIN comes from a file.'
    step 0 'biosim status'
    step 0 'biosim enroll --label right-index'
    step 0 'biosim next match'
    step 0 'vault init --kdf interactive --pin-fd 3 3<"$PIN_FILE"'
    step 0 'vault status'
    step 0 'biosim next match'
    step 0 'printf "Walked to the river at dawn.\nTold no one.\n" | vault add journal/2026-11-29 --pin-fd 3 3<"$PIN_FILE"'
    step 0 'biosim next match'
    step 0 'eval "$(vault unlock --pin-fd 3 3<"$PIN_FILE")"'
    step 0 'vault list'
    step 0 'vault get journal/2026-11-29 | grep -n river'
    echo
    echo '# Someone enrolls another finger: the domain state changes.'
    step 0 'biosim enroll --label left-index'
    step 0 'biosim next match'
    step 15 'vault unlock --pin-fd 3 3<"$PIN_FILE" >/dev/null'
    step 10 'vault get journal/2026-11-29'
    step 0 'vault biometry status'
    echo
    echo '# The owner re-activates with the PIN and a match, then unlocks again.'
    step 0 'biosim next match'
    step 0 'vault biometry activate --pin-fd 3 3<"$PIN_FILE"'
    step 0 'biosim next match'
    step 0 'eval "$(vault unlock --pin-fd 3 3<"$PIN_FILE")"'
    step 0 'vault get journal/2026-11-29'
    step 0 'vault lock'
    step 10 'vault get journal/2026-11-29'
    echo
    echo '# Tour complete: every step gave the exit status shown.'
    """#

  static func run(_ context: Context) throws -> Int32 {
    let bin = URL(fileURLWithPath: try executablePath()).deletingLastPathComponent().path
    var template = Array("/tmp/vault-tour-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { $0.baseAddress.flatMap { mkdtemp($0) } }
    guard made != nil else {
      throw VaultError.storage("cannot create a temporary folder")
    }
    let dir = String(cString: template)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try PrivateFiles.atomicWrite(Array((demoPIN + "\n").utf8), to: dir + "/pin")
    let environment = [
      "HOME": dir, "XDG_DATA_HOME": dir + "/data", "XDG_STATE_HOME": dir + "/state",
      "XDG_RUNTIME_DIR": dir + "/run", "TOUR_DIR": dir, "PIN_FILE": dir + "/pin",
      "PATH": bin + ":/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
    ]
    try PrivateFiles.ensureDirectory(dir + "/run")
    let status = Subprocess.runInheriting("/bin/bash", ["-c", script], environment: environment)
    return status == 0 ? 0 : 1
  }

  static func executablePath() throws -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { throw VaultError.storage("cannot find the vault executable") }
    return String(cString: buffer)
  }
}
