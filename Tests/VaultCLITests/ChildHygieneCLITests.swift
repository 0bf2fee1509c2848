import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI

/// Programs vault starts (the editor, the clipboard tools) inherit no descriptor beyond 0–2, so
/// not the PIN's, and none of vault's variables, so not the session token.
final class ChildHygieneCLITests: XCTestCase {
  var box: Sandbox!
  var bin: String { box.home + "/bin" }
  var report: String { box.home + "/report" }

  override func setUpWithError() throws {
    try TestTier.requireSystem("descriptors and variables of children")
    box = Sandbox()
    try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
  }
  override func tearDown() { box = nil }

  /// A shell script in `bin` that records the descriptors a program it starts inherits (`ls`
  /// lists its own: 0–2, with 1 sent to the report, and the folder it reads) and its VAULT_
  /// variables, then runs `then`.
  func recorder(_ name: String, then body: String = "") {
    let script = """
      #!/bin/sh
      ls -l /proc/self/fd | awk 'NF > 8 { print "fd", $9, $11 }' > "\(report)"
      env | grep '^VAULT_' >> "\(report)"
      \(body)
      """
    XCTAssertTrue(
      FileManager.default.createFile(atPath: bin + "/" + name, contents: Data(script.utf8)))
    chmod(bin + "/" + name, 0o700)
  }

  func recorded() -> [String] {
    (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n").map(
      String.init) ?? []
  }

  func testTheEditorGetsNeitherThePINDescriptorNorTheSession() throws {
    box.initPINOnly()
    XCTAssertEqual(box.vaultPIN(["add", "note"], stdin: Array("text\n".utf8)).status, 0)
    recorder("editor.sh", then: "printf 'edited\\n' > \"$1\"")
    let pinFile = box.home + "/pin"
    try Data("\(Sandbox.pin)\n".utf8).write(to: URL(fileURLWithPath: pinFile))
    let edit = box.shell(
      "vault edit note --pin-fd 3 3<\"$HOME/pin\"",
      env: ["EDITOR": bin + "/editor.sh", "VAULT_SESSION": String(repeating: "0", count: 64)])
    XCTAssertEqual(edit.status, 0, edit.stderrText)
    let lines = recorded()
    XCTAssertFalse(lines.isEmpty)
    XCTAssertFalse(lines.contains { $0.hasSuffix(pinFile) }, lines.joined(separator: "\n"))
    XCTAssertFalse(lines.contains { $0.hasPrefix("VAULT_") }, lines.joined(separator: "\n"))
    let inherited = lines.filter { $0.hasPrefix("fd ") && !$0.contains(" /proc/") }
    XCTAssertEqual(inherited.map { $0.split(separator: " ")[1] }, ["0", "1", "2"], "\(lines)")
    XCTAssertEqual(box.vaultPIN(["get", "note"]).stdoutText, "edited\n")
  }

  func testTheClipboardToolGetsNeitherTheSessionNorADescriptor() {
    box.initPINOnly()
    let session = ["VAULT_SESSION": box.unlock()]
    XCTAssertEqual(box.vault(["add", "pw"], stdin: Array("pw".utf8), env: session).status, 0)
    recorder("xclip", then: "cat > /dev/null")
    let copy = box.vault(
      ["get", "--clip", "--clip-time", "1", "pw"],
      env: session.merging(["DISPLAY": ":99", "PATH": bin + ":/usr/bin:/bin"]) { $1 })
    XCTAssertEqual(copy.status, 0, copy.stderrText)
    let lines = recorded()
    XCTAssertFalse(lines.contains { $0.hasPrefix("VAULT_") }, lines.joined(separator: "\n"))
    let inherited = lines.filter { $0.hasPrefix("fd ") && !$0.contains(" /proc/") }
    XCTAssertEqual(inherited.map { $0.split(separator: " ")[1] }, ["0", "1", "2"], "\(lines)")
  }
}
