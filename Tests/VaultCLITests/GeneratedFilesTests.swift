import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultManualGenerator
@testable import VaultSecrets

/// The committed completion scripts and manual pages are exactly what the command tables and the
/// sources in `man/src` generate, the generation is deterministic, the pages render without a
/// warning, and `vault` itself carries no manual.
final class GeneratedFilesTests: XCTestCase {
  let root = GeneratorTestSupport.packageRoot
  let refresh = "run '\(GeneratedFiles.refreshCommand)' in the package root and commit the result"

  /// Every generated file, made from the package's sources.
  func generated() throws -> [(path: String, contents: String)] {
    try GeneratedFiles.all(packageRoot: root)
  }

  /// A throwaway package root holding a copy of `man/src`, for the `generate-manual` executable.
  func packageCopy(_ box: Sandbox) throws -> String {
    let copy = box.home + "/package"
    try FileManager.default.createDirectory(
      atPath: copy + "/man", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: root + "/man/src", toPath: copy + "/man/src")
    return copy
  }

  func testCommittedFilesAreWhatTheTablesGenerate() throws {
    for file in try generated() {
      let path = root + "/" + file.path
      guard let data = FileManager.default.contents(atPath: path) else {
        XCTFail("\(file.path) is missing: \(refresh)")
        continue
      }
      let committed = String(decoding: data, as: UTF8.self)
      guard committed != file.contents else { continue }
      let old = committed.components(separatedBy: "\n")
      let new = file.contents.components(separatedBy: "\n")
      let line =
        old.indices.first { $0 >= new.count || old[$0] != new[$0] } ?? min(old.count, new.count)
      XCTFail(
        """
        \(file.path) is out of date with the command table or man/src (first difference at line \
        \(line + 1)): \(refresh)
        """)
    }
  }

  func testGenerationIsDeterministicAndHasNoMachinePaths() throws {
    let first = try generated()
    let second = try generated()
    XCTAssertEqual(first.map(\.path), second.map(\.path))
    XCTAssertEqual(first.map(\.contents), second.map(\.contents))
    XCTAssertEqual(
      first.map(\.path),
      [
        "completions/vault.bash", "completions/_vault", "completions/vault.fish",
        "completions/biosim.bash", "completions/_biosim", "completions/biosim.fish",
        "man/vault.1", "man/biosim.1", "man/vault.5",
      ])
    for file in first {
      XCTAssertTrue(file.contents.contains(GeneratedFiles.refreshCommand), file.path)
      for machinePath in [root, Sandbox.binDirectory, NSHomeDirectory(), "/tmp/"]
      where machinePath.count > 1 {
        XCTAssertFalse(file.contents.contains(machinePath), "\(file.path) names \(machinePath)")
      }
    }
    for page in first where page.path.hasPrefix("man/") {
      XCTAssertTrue(page.contents.contains("\"December 7, 2026\""), page.path)
    }
  }

  func testTheGeneratorExecutableWritesEveryFile() throws {
    let box = Sandbox()
    let copy = try packageCopy(box)
    let result = Subprocess.run(
      Sandbox.binDirectory + "/generate-manual", [copy], environment: box.environment)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.stdoutText + result.stderrText, "")
    for file in try generated() {
      let data = try XCTUnwrap(FileManager.default.contents(atPath: copy + "/" + file.path))
      XCTAssertEqual(String(decoding: data, as: UTF8.self), file.contents, file.path)
    }
  }

  func testTheGeneratorExecutableFailsNamingAnUnknownPlaceholder() throws {
    let box = Sandbox()
    let copy = try packageCopy(box)
    let source = copy + "/man/src/vault.5.in"
    let text = try String(contentsOfFile: source, encoding: .utf8)
    // The source ends with a newline; a blank line and the new paragraph follow it.
    let line = text.components(separatedBy: "\n").count + 1
    try (text + "\nThe {{chunk-bytes}} placeholder does not exist.\n")
      .write(toFile: source, atomically: true, encoding: .utf8)
    let result = Subprocess.run(
      Sandbox.binDirectory + "/generate-manual", [copy], environment: box.environment)
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.stderrText,
      "generate-manual: error: man/src/vault.5.in:\(line): unknown placeholder {{chunk-bytes}}\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: copy + "/man/vault.1"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: copy + "/completions"))
    let usage = Subprocess.run(
      Sandbox.binDirectory + "/generate-manual", [], environment: box.environment)
    XCTAssertEqual(usage.status, 64)
    XCTAssertEqual(usage.stderrText, "usage: generate-manual PACKAGE-ROOT\n")
  }

  /// The prose and the roff renderer live in `man/src` and `generate-manual`, not in `vault`.
  func testTheVaultBinaryCarriesNoManual() throws {
    let binary = try XCTUnwrap(
      FileManager.default.contents(atPath: Sandbox.binDirectory + "/vault"))
    let texts = [
      ("man/src/vault.5.in", "The key words\nMUST, MUST NOT and SHOULD are to be read as in RFC"),
      ("man/src/vault.1.in", "Keys, PINs and contents are held in locked memory"),
      ("man/src/biosim.1.in", "biosim is a test double, not a security boundary"),
    ]
    for (source, text) in texts {
      let page = try String(contentsOfFile: root + "/" + source, encoding: .utf8)
      XCTAssertTrue(page.contains(text), "\(source) no longer says: \(text)")
      let sentence = text.replacingOccurrences(of: "\n", with: " ")
      XCTAssertNil(binary.range(of: Data(sentence.utf8)), "vault contains the prose: \(sentence)")
    }
    for renderer in [".nr HY 0", ".TH ", "unknown placeholder"] {
      XCTAssertNil(binary.range(of: Data(renderer.utf8)), "vault contains \(renderer)")
    }
  }

  func testTheCompletionsCommandPrintsEachScript() {
    let box = Sandbox()
    let scripts = [
      "bash": BashCompletion.script(for: VaultCommands.program),
      "zsh": ZshCompletion.script(for: VaultCommands.program),
      "fish": FishCompletion.script(for: VaultCommands.program),
    ]
    for (shell, script) in scripts {
      let result = box.vault(["completions", shell])
      XCTAssertEqual(result.status, 0, result.stderrText)
      XCTAssertEqual(result.stdoutText, script, shell)
    }
    let unknown = box.vault(["completions", "tcsh"])
    XCTAssertEqual(unknown.status, 64)
    XCTAssertEqual(unknown.stdout, [])
    XCTAssertEqual(
      unknown.errorLines,
      [
        "vault: error: invalid value 'tcsh' for SHELL (bash, zsh or fish)",
        "Usage: vault completions SHELL",
      ])
  }

  func testTheCommandPageHasEverySection() throws {
    func sections(_ page: String) -> [String] {
      page.components(separatedBy: "\n").filter { $0.hasPrefix(".SH ") }.map {
        String($0.dropFirst(4)).replacingOccurrences(of: "\"", with: "")
      }
    }
    let page = try XCTUnwrap(try generated().first { $0.path == "man/vault.1" }?.contents)
    XCTAssertEqual(
      sections(page),
      [
        "NAME", "SYNOPSIS", "DESCRIPTION", "FIELDS", "PICK", "IMPORT", "AUDIT", "EXPORT",
        "COMMANDS",
        "OPTIONS",
        "JSON OUTPUT",
        "ENVIRONMENT",
        "FILES", "SYNC", "BIOMETRICS", "EXIT STATUS", "SECURITY", "EXAMPLES", "SEE ALSO",
      ])
    for (code, _) in ExitStatus.table { XCTAssertTrue(page.contains(".TP\n\\fB\(code)\\fR\n")) }
    for path in VaultCommands.program.allPaths() where !path.isEmpty {
      let words = path.joined(separator: " ")
      XCTAssertTrue(page.contains("\\fBvault \(Roff.escape(words))\\fR"), words)
    }
    for variable in [
      "VAULT_PATH", "VAULT_SESSION", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "HOME",
    ] {
      XCTAssertTrue(page.contains(".TP\n\(variable)\n"), variable)
    }
  }

  func testThePagesRenderWithoutWarnings() throws {
    let mandoc = try GeneratorTestSupport.tool("mandoc", package: "mandoc")
    let man = try GeneratorTestSupport.tool("man", package: "man-db")
    let environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "MANWIDTH": "80"]
    for page in try generated().map(\.path) where page.hasPrefix("man/") {
      let path = root + "/" + page
      let lint = Subprocess.run(mandoc, ["-T", "lint", path], environment: environment)
      XCTAssertEqual(lint.stdoutText + lint.stderrText, "", "mandoc -T lint \(page)")
      XCTAssertEqual(lint.status, 0, "mandoc -T lint \(page)")
      let rendered = Subprocess.run(
        man, ["--warnings", "-E", "UTF-8", "-l", path], environment: environment)
      XCTAssertEqual(rendered.stderrText, "", "man --warnings -l \(page)")
      XCTAssertEqual(rendered.status, 0, "man --warnings -l \(page)")
      let wide = rendered.stdoutText.components(separatedBy: "\n").filter { $0.count > 80 }
      XCTAssertEqual(wide, [], "\(page) has lines wider than 80 columns")
    }
  }
}
