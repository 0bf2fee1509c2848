import Foundation
import XCTest

/// A virtual X server (Xvfb) on a free display, for the tests that need one (the clipboard, a
/// pinentry asked on the client's display).
enum VirtualDisplay {
  /// Starts `Xvfb` on a free display and returns it with its display name (":N").
  ///
  /// The server is found in /usr/bin or /bin and told to pick a free display (`-displayfd`);
  /// the test is skipped, saying why, when it is missing or does not start. The caller ends
  /// the process.
  static func start() throws -> (server: Process, display: String) {
    guard
      let program = ["/usr/bin/Xvfb", "/bin/Xvfb"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { throw XCTSkip("Xvfb is not installed") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "320x200x24"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var number = Data()
    while !number.contains(10) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty {
        process.terminate()
        throw XCTSkip("Xvfb did not start")
      }
      number.append(chunk)
    }
    let display = String(decoding: number, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    return (process, ":" + display)
  }
}
