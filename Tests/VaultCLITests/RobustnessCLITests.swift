import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// Bad input found by a fresh tester: each gets one clear error, the documented code, and
/// nothing stored or lost.
final class RobustnessCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
  }

  func testNamesThatAreNotUTF8AreRefused() {
    let result = box.shell(#"printf v | vault add "$(printf 'a\377')""#, env: session)
    XCTAssertEqual(result.status, 5)
    XCTAssertEqual(result.errorLines, ["vault: error: argument 2 is not valid UTF-8"])
    XCTAssertEqual(box.vault(["list"], env: session).stdout, [])
  }

  func testMovingAMissingEntryOntoItselfIsNotFound() {
    let result = box.vault(["mv", "ghost", "ghost"], env: session)
    XCTAssertEqual(result.status, 3)
    XCTAssertEqual(result.errorLines.first, "vault: error: no entry named 'ghost'")
  }

  func testAFailedWriteToStandardOutputIsReported() throws {
    box.vault(["add", "x"], stdin: [1, 2, 3], env: session)
    let get = box.shell("vault get x >/dev/full", env: session)
    XCTAssertEqual(get.status, 1)
    XCTAssertEqual(
      get.errorLines, ["vault: error: cannot write to standard output: No space left on device"])
  }

  /// A token nobody received is not left valid: the agent that took its grant lets it go, and,
  /// holding nothing else, ends.
  func testASessionWhoseTokenCouldNotBeWrittenIsNotIssued() {
    let fresh = Sandbox()
    fresh.initPINOnly()
    let unlock = fresh.shell("vault unlock --raw --pin-fd 3 3<<EOF >/dev/full\n$PIN\nEOF\n")
    XCTAssertEqual(unlock.status, 1)
    XCTAssertEqual(
      unlock.errorLines,
      [
        "vault: error: cannot write to standard output: No space left on device; no session was"
          + " issued"
      ])
    let socket = fresh.folder.runtime + "/vault/agent.sock"
    for _ in 0..<300 where FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
    XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "the agent holds nothing")
  }

  func testABrokenDeviceStateIsReportedByStatus() throws {
    try "garbage".write(
      toFile: box.home + "/state/vault/device.json", atomically: false, encoding: .utf8)
    let result = box.vault(["status"])
    XCTAssertEqual(result.status, 17)
    XCTAssertEqual(result.stdout, [])
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: integrity failure: the device state \(box.home)/state/vault/device.json is corrupt"
      ])
  }

  func testAResetDeviceIsNotAWrongPIN() {
    box.biosim(["reset"])
    let result = box.vaultPIN(["list"])
    XCTAssertEqual(result.status, 11)
    XCTAssertEqual(
      result.errorLines.last, "vault: hint: set a PIN for this device with 'vault recover'")
    XCTAssertEqual((box.statusJSON()["pin"] as? [String: Any])?["consecutive_failures"] as? Int, 0)
  }

  func testPINDescriptorMisuse() {
    XCTAssertEqual(
      box.vault(["list", "--vault", ""]).errorLines,
      [
        "vault: error: --vault needs a path, not an empty string",
        "Usage: vault list [--json] [--removed] [--tree] [PREFIX]",
      ])
    let word = box.vault(["list", "--pin-fd", "abc"])
    XCTAssertEqual(word.status, 64)
    XCTAssertEqual(
      word.errorLines.first, "vault: error: --pin-fd needs a file descriptor number, not 'abc'")
    XCTAssertEqual(
      box.vault(["list", "--pin-fd", "250"]).errorLines,
      ["vault: error: --pin-fd 250 is not an open file descriptor"])
    let stdinPIN = box.vault(["add", "x", "--pin-fd", "0"], stdin: Array("2468\nsecret".utf8))
    XCTAssertEqual(stdinPIN.status, 5)
    XCTAssertEqual(
      stdinPIN.errorLines,
      [
        "vault: error: --pin-fd 0 is standard input, which carries the content; give the PIN on"
          + " another descriptor, such as --pin-fd 3 3<pin-file"
      ])
    let folder = box.shell("vault list --pin-fd 3 3<\"$HOME\"")
    XCTAssertEqual(folder.status, 5)
    XCTAssertEqual(folder.errorLines, ["vault: error: cannot read descriptor 3: Is a directory"])
  }

  func testTheUnlockHintNamesTheVaultGiven() {
    let result = box.vault(["list", "--vault", box.vaultPath])
    XCTAssertEqual(result.status, 10)
    XCTAssertEqual(
      result.errorLines.last,
      "vault: hint: unlock first with: vault unlock --vault \(box.vaultPath)")
  }

  /// Review of 0.12.0 as a new user: a hint that quotes its command gave
  /// `'vault unlock --vault '/tmp/v2.db' --force'`, quotes inside quotes.
  func testTheVaultPathInAHintIsQuotedOnlyAsItNeeds() {
    let quoted = "end the lockout with the PIN: 'vault unlock --force' asks for it"
    XCTAssertEqual(
      CommandRunner.forVault(quoted, "/tmp/v2.db"),
      "end the lockout with the PIN: 'vault unlock --vault /tmp/v2.db --force' asks for it")
    XCTAssertEqual(
      CommandRunner.forVault(quoted, "/tmp/my $vault.db"),
      #"end the lockout with the PIN: 'vault unlock --vault "/tmp/my \$vault.db" --force' asks"#
        + " for it")
    XCTAssertEqual(
      CommandRunner.forVault("unlock first with: vault unlock", "/tmp/it's here.db"),
      #"unlock first with: vault unlock --vault '/tmp/it'\''s here.db'"#)
    XCTAssertEqual(
      CommandRunner.forVault("unlock first with: vault unlock", "-v.db"),
      "unlock first with: vault unlock --vault '-v.db'")
  }

  func testTheFifthWrongPINSaysHowLongToWait() {
    for attempt in 1...4 { box.vault(["list"], pin: ["000\(attempt)"]) }
    let fifth = box.vault(["list"], pin: ["000500"])
    XCTAssertEqual(fifth.status, 11)
    XCTAssertEqual(
      fifth.errorLines, ["vault: error: wrong PIN; the next attempt is allowed in 1 min"])
  }

  func testCommandsThatTypeASecretSayHowWithoutATerminal() {
    let result = box.vault(["passwd"])
    XCTAssertEqual(result.status, 10)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: no terminal to ask for the PIN and no --pin-fd",
        "vault: hint: run it on a terminal, or give the PIN with --pin-fd N",
      ])
  }
}

/// Found by the second-round tester: devices, resets and private folders.
final class DeviceCLITests: XCTestCase {
  var box: Sandbox!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }

  override func setUp() {
    box = Sandbox()
    box.initBiometric()
  }

  func testRecoveringOnAnotherDeviceSaysBiometryMustBeActivatedThere() {
    let other = Sandbox()
    other.environment["VAULT_PATH"] = box.vaultPath
    let status = other.vault(["status"]).stdoutText
    XCTAssertTrue(
      status.contains(
        "device:           the PIN is bound to another device (a copied vault, or a reset"
          + " device); run 'vault recover'\n"), status)
    XCTAssertEqual(other.statusJSON()["bound_to_this_device"] as? Bool, false)
    XCTAssertEqual(box.statusJSON()["bound_to_this_device"] as? Bool, true)

    let first = Sandbox()
    first.biosim(["enroll"])
    first.biosim(["next", "match"])
    let code = first.vault(["init", "--kdf", "test"], pin: ["111100"]).errorLines[2]
    let second = Sandbox()
    second.environment["VAULT_PATH"] = first.vaultPath
    second.biosim(["enroll"])
    let recovered = second.vault(["recover"], pin: [code, "222200"])
    XCTAssertEqual(recovered.status, 0, recovered.stderrText)
    XCTAssertEqual(
      recovered.errorLines.last,
      "Biometric unlock was sealed on another device; activate it here with 'vault biometry"
        + " activate'.")
    let biometry = second.statusJSON()["biometry"] as? [String: Any]
    XCTAssertEqual(
      biometry?["reason"] as? String,
      "this device joined with the recovery code, and a seal belongs to the device that made it")
    second.biosim(["next", "match"])
    XCTAssertEqual(second.vault(["biometry", "activate"], pin: ["222200"]).status, 0)
    second.biosim(["next", "match"])
    XCTAssertEqual(second.vault(["unlock", "--raw"], pin: ["222200"]).status, 0)
  }

  func testResetEndsSessionsAndRecoversFromACorruptState() throws {
    let token = box.unlock()
    let reset = box.biosim(["reset"])
    XCTAssertEqual(reset.status, 0)
    XCTAssertEqual(
      reset.errorLines,
      [
        "The device was erased: new device secret, nothing enrolled, every session ended. Each"
          + " vault needs 'vault recover' to set its PIN on this device."
      ])
    XCTAssertEqual(box.vault(["list"], env: ["VAULT_SESSION": token]).status, 10)
    try "garbage".write(
      toFile: box.home + "/state/vault/device.json", atomically: false, encoding: .utf8)
    XCTAssertEqual(box.biosim(["status"]).status, 17)
    XCTAssertEqual(box.biosim(["reset"]).status, 0)
    XCTAssertEqual(box.sensor()["enrolled"] as? [String], [])
  }

  func testLooseOrLinkedSessionFoldersAreRefused() throws {
    let folder = box.home + "/run/vault"
    mkdir(folder, 0o777)
    chmod(folder, 0o777)
    box.biosim(["next", "match"])
    let loose = box.vaultPIN(["unlock"])
    XCTAssertEqual(loose.status, 19)
    XCTAssertEqual(
      loose.errorLines,
      [
        "vault: error: \(folder) can be used by other users; refusing to use it",
        "vault: hint: run: chmod 700 '\(folder)'",
      ])
    try FileManager.default.removeItem(atPath: folder)
    mkdir(box.home + "/elsewhere", 0o777)
    symlink(box.home + "/elsewhere", folder)
    box.biosim(["next", "match"])
    let refused = box.vaultPIN(["unlock"])
    XCTAssertEqual(refused.status, 19)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: \(folder) is not a folder (a symbolic link?); refusing to use it",
        "vault: hint: run: rm '\(folder)'",
      ])
  }
}

/// A vault or a device state other users could read or replace is refused (19) with the chmod
/// that fixes it, as ssh refuses a private key.
final class LooseModeTests: XCTestCase {
  var box: Sandbox!

  override func setUp() {
    box = Sandbox()
    box.initPINOnly()
  }
  override func tearDown() { box = nil }

  func testALooseVaultFileOrFolderIsRefused() {
    chmod(box.vaultPath, 0o644)
    let file = box.vaultPIN(["list"])
    XCTAssertEqual(file.status, 19)
    XCTAssertEqual(
      file.errorLines,
      [
        "vault: error: \(box.vaultPath) can be read or written by other users; refusing to use it",
        "vault: hint: run: chmod 600 '\(box.vaultPath)'",
      ])
    chmod(box.vaultPath, 0o600)
    let folder = box.home + "/data/vault"
    chmod(folder, 0o777)
    let writable = box.vaultPIN(["list"])
    XCTAssertEqual(writable.status, 19)
    XCTAssertEqual(
      writable.errorLines,
      [
        "vault: error: \(folder) can be written by other users; refusing to use it",
        "vault: hint: run: chmod go-w '\(folder)'",
      ])
    chmod(folder, 0o755)
    let readable = box.vaultPIN(["list"])
    XCTAssertEqual(readable.status, 19)
    XCTAssertEqual(
      readable.errorLines,
      [
        "vault: error: \(folder) can be read by other users; refusing to use it",
        "vault: hint: run: chmod go-rwx '\(folder)'",
      ])
    chmod(folder, 0o700)
    XCTAssertEqual(box.vaultPIN(["list"]).status, 0)
  }

  /// vault(1) FILES says which folders others may not read, as the binary refuses them (from
  /// the new-user review of 0.11.0: the page said only "writable", while a folder others can
  /// read or enter was refused with exit 19).
  func testTheManualSaysThatOthersMayNotReadTheVaultsFolder() throws {
    let folder = box.home + "/data/vault"
    for mode: mode_t in [0o750, 0o705, 0o711, 0o701] {
      chmod(folder, mode)
      let refused = box.vaultPIN(["list"])
      XCTAssertEqual(refused.status, 19, String(mode, radix: 8))
      XCTAssertEqual(
        refused.errorLines,
        [
          "vault: error: \(folder) can be read by other users; refusing to use it",
          "vault: hint: run: chmod go-rwx '\(folder)'",
        ])
    }
    chmod(folder, 0o700)
    let state = box.home + "/state/vault"
    chmod(state, 0o711)
    let loose = box.vault(["status"])
    XCTAssertEqual(loose.status, 19)
    XCTAssertEqual(
      loose.errorLines,
      [
        "vault: error: \(state) can be used by other users; refusing to use it",
        "vault: hint: run: chmod 700 '\(state)'",
      ])
    chmod(state, 0o700)
    let source = try String(
      contentsOfFile: GeneratorTestSupport.packageRoot + "/man/src/vault.1.in", encoding: .utf8)
    let files = try XCTUnwrap(source.components(separatedBy: ".section FILES\n").last)
      .components(separatedBy: "\n.section ")[0]
    let prose = files.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    XCTAssertTrue(
      prose.contains(
        "The vault file's folder, the state folder and the session and agent folders must also"
          + " give group and others no permission at all, not even to read or enter them (mode"
          + " 0700; in the vault's folder others would see its name and its journal come and go)."
          + " Otherwise vault refuses it with exit 19"),
      prose)
    XCTAssertFalse(prose.contains("in a folder no other user can write to"), prose)
  }

  func testAVaultLinkedIntoAnotherUsersFolderIsRefused() {
    guard geteuid() == 0 else { return }
    let other = box.home + "/other"
    mkdir(other, 0o755)
    chown(other, 1, 1)
    rename(box.vaultPath, other + "/vault.db")
    symlink(other + "/vault.db", box.vaultPath)
    let result = box.vaultPIN(["list"])
    XCTAssertEqual(result.status, 19)
    XCTAssertEqual(
      result.errorLines,
      ["vault: error: \(other) belongs to another user; refusing to use it"])
  }

  func testALooseDeviceStateIsRefused() {
    let path = box.home + "/state/vault/device.json"
    chmod(path, 0o640)
    let result = box.vault(["status"])
    XCTAssertEqual(result.status, 19)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: \(path) can be read or written by other users; refusing to use it",
        "vault: hint: run: chmod 600 '\(path)'",
      ])
  }
}
