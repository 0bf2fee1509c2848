import Glibc

/// Finds the programs vault starts (git, gpg, the editor, clipboard, menu and typing tools) as a
/// shell would: the first executable file of that name in a folder of `PATH`.
enum ProgramSearch {
  /// The path of `program` in the folders of `variables["PATH"]` (`/usr/bin:/bin` when unset),
  /// or nil; empty and relative folders (`.`, `bin`: wherever a command happens to run, a
  /// shell's rule vault does not follow for programs it hands secrets to) and folders of that
  /// name are passed over.
  static func find(_ program: String, _ variables: [String: String]) -> String? {
    for folder in (variables["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    where folder.hasPrefix("/") {
      let candidate = "\(folder)/\(program)"
      var info = stat()
      if access(candidate, X_OK) == 0, stat(candidate, &info) == 0,
        info.st_mode & S_IFMT != S_IFDIR
      {
        return candidate
      }
    }
    return nil
  }
}
