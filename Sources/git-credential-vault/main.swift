// git-credential-vault: git's name for `vault credential` (`git config credential.helper
// vault`). It replaces itself with the `vault` beside it, so the agent and every check see
// vault's own executable; nothing else happens here.
import Glibc

/// Writes `message` on standard error and exits 127, as a shell does for a program it cannot
/// run.
func fail(_ message: String) -> Never {
  let line = Array(("git-credential-vault: error: " + message + "\n").utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(127)
}

var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
guard length > 0 else { fail("cannot find its own executable") }
let own = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
let folder = own.split(separator: "/", omittingEmptySubsequences: false).dropLast()
  .joined(separator: "/")
let vault = folder + "/vault"
var argv = (["vault", "credential"] + CommandLine.arguments.dropFirst()).map { strdup($0) } + [nil]
execv(vault, &argv)
fail("cannot run \(vault): \(String(cString: strerror(errno)))")
