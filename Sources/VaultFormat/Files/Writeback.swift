import CPlatform
import Glibc

/// Starts the write-back of a large write's pages while it is still being made, so that the
/// commit's `fsync` waits for the last few MiB rather than for all of them: without it the
/// kernel holds a GiB of dirty pages until the commit (its background write-back starts at 10%
/// of memory or after 30 s), and the durable write takes the disk's whole time after the CPU's.
///
/// Only a hint (`sync_file_range(2)`, `SYNC_FILE_RANGE_WRITE`, on a descriptor of its own): the
/// write is durable through SQLite's own `fsync` as before, and a failure changes nothing.
final class Writeback {
  /// Bytes written between two hints (32 MiB).
  static let interval = 32 << 20

  private let fd: Int32
  private var pending = 0

  /// Hints for the file at `path`; nil when it cannot be opened (then nothing is hinted).
  init?(path: String) {
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return nil }
  }

  deinit { close(fd) }

  /// Counts `bytes` more written; every `interval` bytes, starts their write-back.
  func wrote(_ bytes: Int) {
    pending += bytes
    guard pending >= Self.interval else { return }
    pending = 0
    _ = vault_start_writeback(fd)
  }
}
