import Glibc

/// A NULL-terminated array of C strings for `posix_spawn`'s argv or envp, freed with its owner.
final class CStringVector {
  /// The strings and a final nil; valid while this object lives (use `withExtendedLifetime`).
  let pointers: [UnsafeMutablePointer<CChar>?]

  /// Copies `strings` (such as argv).
  init(_ strings: [String]) {
    pointers = strings.map { strdup($0) } + [nil]
  }

  /// Copies an environment as `KEY=value` strings.
  convenience init(environment: [String: String]) {
    self.init(environment.map { "\($0.key)=\($0.value)" })
  }

  deinit { pointers.forEach { free($0) } }
}
