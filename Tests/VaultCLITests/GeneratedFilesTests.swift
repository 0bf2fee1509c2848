import Foundation
import XCTest

@testable import VaultCLI

/// The committed completion scripts and manual pages are exactly what the command tables generate,
/// the generation is deterministic, and the pages render without a warning.
final class GeneratedFilesTests: XCTestCase {
  let root = GeneratorTestSupport.packageRoot
  let refresh = "run '\(GeneratedFiles.refreshCommand)' in the package root and commit the result"

  func testCommittedFilesAreWhatTheTablesGenerate() {
    for file in GeneratedFiles.all() {
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
        \(file.path) is out of date with the command table (first difference at line \(line + 1)): \
        \(refresh)
        """)
    }
  }

  func testGenerationIsDeterministicAndHasNoMachinePaths() {
    let first = GeneratedFiles.all()
    let second = GeneratedFiles.all()
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
      XCTAssertTrue(page.contents.contains("\"November 29, 2026\""), page.path)
    }
  }

  func testTheGenerateCommandWritesEveryFile() throws {
    let box = Sandbox()
    let result = box.vault(["__generate", box.home + "/out"])
    XCTAssertEqual(result.status, 0, result.stderrText)
    for file in GeneratedFiles.all() {
      let data = try XCTUnwrap(FileManager.default.contents(atPath: box.home + "/out/" + file.path))
      XCTAssertEqual(String(decoding: data, as: UTF8.self), file.contents, file.path)
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

  func testTheCommandPageHasEverySection() {
    func sections(_ page: String) -> [String] {
      page.components(separatedBy: "\n").filter { $0.hasPrefix(".SH ") }.map {
        String($0.dropFirst(4)).replacingOccurrences(of: "\"", with: "")
      }
    }
    XCTAssertEqual(
      sections(ManPage.vault()),
      [
        "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "JSON OUTPUT", "ENVIRONMENT",
        "FILES", "EXIT STATUS", "SECURITY", "EXAMPLES", "SEE ALSO",
      ])
    let page = ManPage.vault()
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
    for page in GeneratedFiles.all().map(\.path) where page.hasPrefix("man/") {
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
