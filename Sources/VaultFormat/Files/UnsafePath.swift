/// A path vault refuses to use because others could read, replace or plant files in it
/// (`VaultError.unsafePermissions`, exit 19): which path and what is wrong with it, which the
/// command line words with the command that fixes it.
public struct UnsafePath: Equatable, Sendable {
  /// What is wrong with a path.
  public enum Problem: Equatable, Sendable {
    /// A folder vault owns by name is not a folder (a symbolic link?).
    case notAFolder
    /// A private file is not a regular file.
    case notARegularFile
    /// It belongs to another user.
    case otherUser
    /// A private folder grants group or others any permission.
    case folderUsableByOthers
    /// A private file can be read or written by group or others.
    case fileUsableByOthers
    /// The folder of a private file is shared and sticky (such as /tmp).
    case sharedFolder
    /// The folder of a private file can be written by group or others.
    case folderWritableByOthers
    /// The folder of a vault file can be read by group or others.
    case folderReadableByOthers
    /// A program vault hands a secret to can be written by group or others.
    case programWritableByOthers
  }

  /// The path as checked (after following a symbolic link, for a file).
  public let path: String
  /// What is wrong with it.
  public let problem: Problem

  /// `path` with `problem`.
  public init(_ path: String, _ problem: Problem) {
    self.path = path
    self.problem = problem
  }
}
