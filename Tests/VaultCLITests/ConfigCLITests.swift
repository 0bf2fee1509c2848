import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat

/// `vault config --global`: your settings for every vault, in `$XDG_CONFIG_HOME/vault/config`
/// (issue "The agent as the one key holder", settings that belong to the user).
final class ConfigCLITests: XCTestCase {
  var box: Sandbox!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }

  override func setUp() {
    box = Sandbox(extra: ["XDG_CONFIG_HOME": "/placeholder"])
    box.environment["XDG_CONFIG_HOME"] = box.home + "/config"
  }

  var file: String { box.home + "/config/vault/config" }

  func mode(_ path: String) -> mode_t {
    var info = stat()
    XCTAssertEqual(stat(path, &info), 0, path)
    return info.st_mode & 0o777
  }

  func testPinentryIsAutoUntilSetAndTheFileIsPrivate() throws {
    XCTAssertEqual(
      box.vault(["config", "--global"]).stdoutText, "pinentry auto\ncredential.folder git\n")
    let set = box.vault(["config", "--global", "pinentry", "tty"])
    XCTAssertEqual(set.status, 0, set.stderrText)
    XCTAssertEqual(set.errorLines, ["Set pinentry to tty in \(file)."])
    XCTAssertEqual(box.vault(["config", "--global", "pinentry"]).stdoutText, "tty\n")
    XCTAssertEqual(
      try String(contentsOfFile: file, encoding: .utf8),
      "# vault's settings for every vault of yours: vault config --global KEY VALUE\n"
        + "pinentry = tty\n")
    XCTAssertEqual(mode(file), 0o600)
    XCTAssertEqual(mode(box.home + "/config/vault"), 0o700)
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", "auto"]).status, 0)
    XCTAssertEqual(
      try String(contentsOfFile: file, encoding: .utf8),
      "# vault's settings for every vault of yours: vault config --global KEY VALUE\n")
    XCTAssertEqual(
      box.vault(["config", "--global"]).stdoutText, "pinentry auto\ncredential.folder git\n")
  }

  func testAProgramOnlyYouOrRootCanChangeIsTaken() throws {
    let bin = box.home + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let program = bin + "/my-pinentry"
    XCTAssertTrue(
      FileManager.default.createFile(atPath: program, contents: Data("#!/bin/sh\n".utf8)))
    chmod(program, 0o755)
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", program]).status, 0)
    XCTAssertEqual(box.vault(["config", "--global", "pinentry"]).stdoutText, program + "\n")
    // Writable by others: whoever can change it would be handed your PIN.
    chmod(program, 0o775)
    let writable = box.vault(["config", "--global", "pinentry", program])
    XCTAssertEqual(writable.status, 19)
    XCTAssertEqual(
      writable.errorLines,
      [
        "vault: error: \(program) can be written by other users, who could replace the program"
          + " vault hands your PIN to; refusing to use it",
        "vault: hint: run: chmod go-w '\(program)'",
      ])
    chmod(program, 0o755)
    chmod(bin, 0o777)
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", program]).status, 19)
    chmod(bin, 0o700)
    chmod(program, 0o644)
    let notRunnable = box.vault(["config", "--global", "pinentry", program])
    XCTAssertEqual(notRunnable.status, 5)
    XCTAssertEqual(
      notRunnable.errorLines, ["vault: error: \(program) is not a program you can run"])
    XCTAssertEqual(box.vault(["config", "--global", "pinentry"]).stdoutText, program + "\n")
  }

  func testTheCredentialsFolderIsAFolderOfEntryNames() {
    let set = box.vault(["config", "--global", "credential.folder", "creds/git"])
    XCTAssertEqual(set.status, 0, set.stderrText)
    XCTAssertEqual(set.errorLines, ["Set credential.folder to creds/git in \(file)."])
    XCTAssertEqual(
      box.vault(["config", "--global", "credential.folder"]).stdoutText, "creds/git\n")
    for bad in ["creds/", "/creds", ""] {
      let refused = box.vault(["config", "--global", "credential.folder", bad])
      XCTAssertEqual(refused.status, 5, bad)
      XCTAssertEqual(
        refused.errorLines,
        [
          "vault: error: credential.folder is a folder of entry names, such as git, not"
            + " '\(bad)'"
        ])
    }
    XCTAssertEqual(
      box.vault(["config", "--global", "credential.folder"]).stdoutText, "creds/git\n")
  }

  /// Attack review: a link on the way to the program that another user owns (in a sticky
  /// /tmp it could be pointed elsewhere after the check), and a script whose interpreter
  /// another user owns, are refused; the program that runs is the checked real path.
  func testALinkOrAnInterpreterOfAnotherUserIsRefused() throws {
    guard geteuid() == 0 else { throw XCTSkip("making another user's files needs root") }
    let bin = box.home + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let program = bin + "/pe"
    XCTAssertTrue(
      FileManager.default.createFile(atPath: program, contents: Data("#!/bin/sh\n".utf8)))
    chmod(program, 0o755)
    let link = bin + "/link"
    XCTAssertEqual(symlink(program, link), 0)
    XCTAssertEqual(
      box.vault(["config", "--global", "pinentry", link]).status, 0, "the user's link")
    XCTAssertEqual(lchown(link, 65534, 65534), 0)
    let refused = box.vault(["config", "--global", "pinentry", link])
    XCTAssertEqual(refused.status, 19, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines.first, "vault: error: \(link) belongs to another user; refusing to use it")
    let interpreter = bin + "/theirs"
    XCTAssertTrue(
      FileManager.default.createFile(atPath: interpreter, contents: Data("#!/bin/sh\n".utf8)))
    chmod(interpreter, 0o755)
    XCTAssertEqual(chown(interpreter, 65534, 65534), 0)
    try Data("#!\(interpreter) -x\n".utf8).write(to: URL(fileURLWithPath: program))
    let script = box.vault(["config", "--global", "pinentry", program])
    XCTAssertEqual(script.status, 19, script.stderrText)
    XCTAssertEqual(
      script.errorLines.first,
      "vault: error: \(interpreter) belongs to another user; refusing to use it")
  }

  /// New-user review: a hand-edited file is held to the same values as the command, so a
  /// relative pinentry (run from wherever a command runs) never runs.
  func testValuesWrittenByHandAreCheckedAsTheCommandChecksThem() throws {
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", "tty"]).status, 0)
    for (text, words) in [
      ("pinentry = relpin\n", "pinentry is the absolute path of a pinentry program, tty or auto"),
      (
        "pinentry = tty # mine\n",
        "pinentry is the absolute path of a pinentry program, tty or auto"
      ),
      ("credential.folder = git/\n", "credential.folder is a folder of entry names, such as git"),
    ] {
      try Data(text.utf8).write(to: URL(fileURLWithPath: file))
      let read = box.vault(["config", "--global"])
      XCTAssertEqual(read.status, 5, text)
      XCTAssertEqual(read.errorLines.first, "vault: error: \(file) line 1: \(words)", text)
    }
    try Data("pinentry = tty\r\n".utf8).write(to: URL(fileURLWithPath: file))
    XCTAssertEqual(box.vault(["config", "--global", "pinentry"]).stdoutText, "tty\n")
    let missing = box.vault(["config", "--global", "pinentry", box.home + "/none"])
    XCTAssertEqual(missing.status, 5)
    XCTAssertEqual(
      missing.errorLines, ["vault: error: there is no program at \(box.home)/none"])
    let folder = box.vault(["config", "--global", "pinentry", box.home])
    XCTAssertEqual(folder.status, 5)
    XCTAssertEqual(
      folder.errorLines, ["vault: error: \(box.home) is not a program you can run"])
  }

  func testBadValuesAndKeysInTheWrongPlaceAreRefused() {
    let relative = box.vault(["config", "--global", "pinentry", "pinentry-tty"])
    XCTAssertEqual(relative.status, 5)
    XCTAssertEqual(
      relative.errorLines,
      [
        "vault: error: pinentry is the absolute path of a pinentry program, tty or auto, not"
          + " 'pinentry-tty'"
      ])
    let local = box.vault(["config", "pinentry", "tty"])
    XCTAssertEqual(local.status, 64)
    XCTAssertEqual(
      local.errorLines.first,
      "vault: error: pinentry is your setting for every vault: vault config --global pinentry"
        + " VALUE")
    let global = box.vault(["config", "--global", "sync.auto", "on"])
    XCTAssertEqual(global.status, 64)
    XCTAssertEqual(
      global.errorLines.first,
      "vault: error: sync.auto is this device's setting for one vault: vault config sync.auto"
        + " VALUE")
    XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing was written")
  }

  /// New-user review: a settings file kept by a dotfiles manager is a link, and stays one; the
  /// comments and lines written by hand stay where they were.
  func testALinkedFileIsWrittenThroughAndItsCommentsKept() throws {
    let dotfiles = box.home + "/dotfiles"
    try FileManager.default.createDirectory(
      atPath: dotfiles, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.createDirectory(
      atPath: box.home + "/config/vault", withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    let real = dotfiles + "/vault-config"
    try Data("# mine, from my dotfiles\n\ncredential.folder=forge\n".utf8).write(
      to: URL(fileURLWithPath: real))
    chmod(real, 0o600)
    XCTAssertEqual(symlink(real, file), 0)
    let set = box.vault(["config", "--global", "pinentry", "tty"])
    XCTAssertEqual(set.status, 0, set.stderrText)
    XCTAssertEqual(
      try FileManager.default.destinationOfSymbolicLink(atPath: file), real, "still a link")
    XCTAssertEqual(
      try String(contentsOfFile: real, encoding: .utf8),
      "# mine, from my dotfiles\n\ncredential.folder=forge\npinentry = tty\n")
    XCTAssertEqual(box.vault(["config", "--global", "credential.folder", "git"]).status, 0)
    XCTAssertEqual(
      box.vault(["config", "--global", "pinentry", "/usr/bin/pinentry-tty"]).status, 0)
    XCTAssertEqual(
      try String(contentsOfFile: real, encoding: .utf8),
      "# mine, from my dotfiles\n\npinentry = /usr/bin/pinentry-tty\n")
    XCTAssertEqual(mode(real), 0o600)
    // A link of the chain in a folder others can write could be pointed elsewhere: refused
    // (verification review).
    let shared = box.home + "/shared"
    XCTAssertEqual(mkdir(shared, 0o700), 0)
    XCTAssertEqual(chmod(shared, 0o777), 0)
    XCTAssertEqual(symlink(real, shared + "/hop"), 0)
    unlink(file)
    XCTAssertEqual(symlink(shared + "/hop", file), 0)
    for arguments in [["config", "--global"], ["config", "--global", "pinentry", "tty"]] {
      let refused = box.vault(arguments)
      XCTAssertEqual(refused.status, 19, "\(arguments): \(refused.stderrText)")
      XCTAssertEqual(
        refused.errorLines.first?.contains(shared), true, "\(arguments): \(refused.stderrText)")
    }
    XCTAssertEqual(
      try String(contentsOfFile: real, encoding: .utf8),
      "# mine, from my dotfiles\n\npinentry = /usr/bin/pinentry-tty\n", "nothing written")
    unlink(file)
    XCTAssertEqual(symlink(real, file), 0)
    unlink(real)
    let dangling = box.vault(["config", "--global", "pinentry", "tty"])
    XCTAssertNotEqual(dangling.status, 0)
    XCTAssertEqual(
      try FileManager.default.destinationOfSymbolicLink(atPath: file), real,
      "a dangling link is not replaced")
  }

  func testAFileOthersCanChangeOrThatVaultCannotReadIsRefused() throws {
    XCTAssertEqual(box.vault(["config", "--global", "pinentry", "tty"]).status, 0)
    chmod(file, 0o644)
    let open = box.vault(["config", "--global"])
    XCTAssertEqual(open.status, 19)
    XCTAssertEqual(
      open.errorLines.last, "vault: hint: run: chmod 600 '\(file)'")
    chmod(file, 0o600)
    try Data("pinentry = tty\ncolour = blue\n".utf8).write(to: URL(fileURLWithPath: file))
    let unknown = box.vault(["config", "--global"])
    XCTAssertEqual(unknown.status, 5)
    XCTAssertEqual(
      unknown.errorLines,
      [
        "vault: error: \(file) line 2: vault has no setting 'colour'",
        "vault: hint: the settings are pinentry, credential.folder; fix the file, or remove it and"
          + " set them again with 'vault config --global KEY VALUE'",
      ])
    try Data("# mine\n\n  pinentry\t=  /usr/bin/pinentry-tty  \n".utf8).write(
      to: URL(fileURLWithPath: file))
    XCTAssertEqual(
      box.vault(["config", "--global", "pinentry"]).stdoutText, "/usr/bin/pinentry-tty\n")
    try Data("pinentry = tty\npinentry = auto\n".utf8).write(to: URL(fileURLWithPath: file))
    XCTAssertEqual(
      box.vault(["config", "--global"]).errorLines.first,
      "vault: error: \(file) line 2: pinentry is set on an earlier line too")
    try Data("pinentry tty\n".utf8).write(to: URL(fileURLWithPath: file))
    XCTAssertEqual(
      box.vault(["config", "--global"]).errorLines.first,
      "vault: error: \(file) line 1 is not KEY = VALUE")
  }
}
