import Glibc
import VaultCore
import VaultCrypto

/// Lines for standard output gathered in pieces of up to 64 KiB, each written with one
/// `write(2)` (a listing of 100,000 names is a few dozen writes, not 100,000).
///
/// Names go out exactly as stored to a pipe or a file and through `Output.printable` on a
/// terminal, which is asked once. Every piece is wiped once written; `finish` writes the rest.
/// Write failures are `Output.write`'s (141 in silence for a closed pipe).
struct ListingOutput {
  /// Bytes gathered before a write.
  static let capacity = 64 * 1024

  private var bytes: [UInt8] = []
  /// True when standard output is a terminal (names are then shown with `Output.printable`).
  let onTerminal = isatty(1) == 1

  init() { bytes.reserveCapacity(Self.capacity + 4096) }

  /// Adds `text` as it is.
  mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
    if bytes.count >= Self.capacity { flush() }
  }

  /// Adds a stored name (or other stored text) and a newline, as `Output.listed` shows it.
  mutating func line(listing text: String) {
    append(onTerminal ? Output.printable(text) : text)
    append("\n")
  }

  /// Writes what is gathered.
  mutating func flush() {
    bytes.withUnsafeBytes { Output.write($0) }
    wipe(&bytes)
    bytes.removeAll(keepingCapacity: true)
  }

  /// Writes the rest; call once at the end.
  mutating func finish() {
    if !bytes.isEmpty { flush() }
  }
}
