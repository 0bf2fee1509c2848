import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// Recovery codes with a check group (`vault(5)`, RECOVERY CODE), through the built binary:
/// `vault init` shows 9 groups, a typo is told apart from a wrong code before any derivation,
/// and the form without the check group still recovers.
final class RecoveryCodeCLITests: XCTestCase {
  var box: Sandbox!
  /// The code `vault init` showed, as shown.
  var shown = ""

  static let typo =
    "vault: error: the recovery code has a typo: its last group does not match the other"
    + " symbols; check each group (nothing was tried)"

  override func setUp() {
    box = Sandbox()
    let created = box.vault(["init", "--kdf", "test", "--no-biometry"], pin: [Sandbox.pin])
    XCTAssertEqual(created.status, 0, created.stderrText)
    let lines = created.errorLines
    let heading = lines.firstIndex(of: Context.recoveryCodeHeading) ?? lines.count
    shown = heading + 1 < lines.count ? lines[heading + 1] : ""
  }
  override func tearDown() { box = nil }

  /// The 36 symbols of the shown code.
  var symbols: [UInt8] { Array(shown.utf8).filter { $0 != UInt8(ascii: "-") } }

  static func grouped(_ symbols: [UInt8]) -> String {
    stride(from: 0, to: symbols.count, by: 4).map {
      String(decoding: symbols[$0..<min($0 + 4, symbols.count)], as: UTF8.self)
    }.joined(separator: "-")
  }

  /// True when the 36 symbols pass their check group.
  static func passesCheck(_ symbols: [UInt8]) -> Bool {
    RecoveryCode.checkGroup(SecureBytes(copying: symbols.prefix(32))) == Array(symbols.suffix(4))
  }

  func recover(_ code: String) -> Subprocess.Result {
    box.vault(["recover"], pin: [code, "135799"])
  }

  func fileBytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  func testInitShowsTheCodeInNineGroupsEndingWithItsCheckGroup() {
    XCTAssertEqual(shown.split(separator: "-").map(\.count), Array(repeating: 4, count: 9), shown)
    XCTAssertEqual(symbols.count, 36)
    XCTAssertTrue(symbols.allSatisfy { RecoveryCode.alphabet.contains($0) }, shown)
    XCTAssertTrue(Self.passesCheck(symbols), shown)
  }

  /// Each typed code with the check group failing: a changed symbol and two neighbours swapped.
  func typos() -> [(String, [UInt8])] {
    var found: [(String, [UInt8])] = []
    // The first substitution whose check group fails (all but one in a million do).
    substitution: for index in 0..<36 {
      for symbol in RecoveryCode.alphabet where symbol != symbols[index] {
        var changed = symbols
        changed[index] = symbol
        if !Self.passesCheck(changed) {
          found.append(("symbol \(index) changed", changed))
          break substitution
        }
      }
    }
    for index in 0..<35 where symbols[index] != symbols[index + 1] {
      var swapped = symbols
      swapped.swapAt(index, index + 1)
      if !Self.passesCheck(swapped) {
        found.append(("symbols \(index) and \(index + 1) swapped", swapped))
        break
      }
    }
    return found
  }

  func testATypoIsRefusedBeforeAnythingIsTriedOrChanged() throws {
    let device = box.home + "/state/vault/device.json"
    let before = (try fileBytes(device), try fileBytes(box.vaultPath))
    let cases = typos()
    XCTAssertEqual(cases.count, 2)
    for (what, typed) in cases {
      let result = recover(Self.grouped(typed))
      XCTAssertEqual(result.status, 5, "\(what): \(result.stderrText)")
      XCTAssertEqual(result.errorLines, [Self.typo], what)
      // Nothing read the code further: the device state and the vault are as they were.
      XCTAssertEqual(try fileBytes(device), before.0, what)
      XCTAssertEqual(try fileBytes(box.vaultPath), before.1, what)
    }
    XCTAssertEqual(recover(shown).status, 0)
  }

  func testAWellFormedOtherCodeIsAWrongCode() {
    let other = RecoveryCode.display(RecoveryCode.generate())
    let result = recover(other)
    XCTAssertEqual(result.status, 11, result.stderrText)
    XCTAssertEqual(result.errorLines, ["vault: error: wrong recovery code"])
  }

  func testTheCodeRecoversWithAndWithoutItsCheckGroup() {
    let withoutCheck = Self.grouped(Array(symbols.prefix(32)))
    let old = recover(withoutCheck)
    XCTAssertEqual(old.status, 0, old.stderrText)
    XCTAssertEqual(
      old.errorLines.first, "New PIN set for this machine; every session was revoked.")
    let full = box.vault(["recover"], pin: [shown.lowercased(), "246800"])
    XCTAssertEqual(full.status, 0, full.stderrText)
    XCTAssertEqual(box.vaultPIN(["list"]).status, 0)
  }

  func testAWrongNumberOfSymbolsIsMalformed() {
    let result = recover(String(shown.dropLast()))
    XCTAssertEqual(result.status, 5)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: a recovery code is 36 symbols (32 in a code shown without its check"
          + " group) of 0-9 and A-Z (I and L read as 1, O as 0, no U)"
      ])
  }

  // MARK: - Typing a new code back (the function a command that replaces the code uses)

  /// A context whose `--pin-fd` yields `lines`, and what it told the user.
  func confirm(_ code: SecureBytes, lines: [String]) throws -> (error: Error?, told: [String]) {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let data = Array(lines.map { $0 + "\n" }.joined().utf8)
    XCTAssertEqual(data.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }, data.count)
    close(fds[1])
    defer { close(fds[0]) }
    let invocation = try Parser.parse(
      ["status", "--pin-fd", "\(fds[0])"], program: VaultCommands.program)
    let context = try Context(
      invocation: invocation, environment: VaultEnvironment(variables: box.environment))
    var told: [String] = []
    do {
      try context.typeBackRecoveryCode(code) { told.append($0) }
      return (nil, told)
    } catch {
      return (error, told)
    }
  }

  func testANewCodeTypedBackIsAskedAgainOnATypoOrAMismatchUpToThreeTimes() throws {
    let code = secureCode("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    let right = "0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ-ME3R"
    let typo = "0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXZY-ME3R"
    let other = RecoveryCode.display(RecoveryCode.generate())
    let first = try confirm(code, lines: [right])
    XCTAssertNil(first.error)
    XCTAssertEqual(first.told, [])
    let third = try confirm(code, lines: [typo, other, right.lowercased(), "never read"])
    XCTAssertNil(third.error)
    XCTAssertEqual(
      third.told,
      [
        "vault: the recovery code has a typo: its last group does not match the other symbols;"
          + " check each group (nothing was tried); type it again (2 tries left)",
        "vault: that is not the recovery code shown; type it again (1 try left)",
      ])
    // Without its check group it is the same code.
    XCTAssertNil(try confirm(code, lines: ["0123456789ABCDEFGHJKMNPQRSTVWXYZ"]).error)
    let failed = try confirm(code, lines: [typo, typo, other, right])
    XCTAssertEqual(
      (failed.error as? InputRefused)?.message,
      "the new recovery code was not typed back correctly in 3 tries")
    XCTAssertEqual(failed.told.count, 2)
    let ended = try confirm(code, lines: [typo])
    guard let why = (ended.error as? InputRefused)?.message else {
      return XCTFail("\(String(describing: ended.error))")
    }
    XCTAssertTrue(why.hasSuffix(" ended before a line was read"), why)
  }

  func testWithNeitherATerminalNorPinFDNoNewCodeIsShown() throws {
    if Terminal.open() != nil { throw XCTSkip("this test runs without a controlling terminal") }
    let invocation = try Parser.parse(["status"], program: VaultCommands.program)
    let context = try Context(
      invocation: invocation, environment: VaultEnvironment(variables: box.environment))
    XCTAssertThrowsError(try context.confirmNewRecoveryCode(RecoveryCode.generate())) {
      let refusal = $0 as? NoTerminal
      XCTAssertEqual(
        refusal?.message,
        "no terminal to show the new recovery code on and have it typed back, and no --pin-fd")
      XCTAssertEqual(refusal?.hint, "run it on a terminal")
      XCTAssertEqual(refusal?.exitCode, .locked)
    }
  }

  func secureCode(_ text: String) -> SecureBytes { SecureBytes(copying: Array(text.utf8)) }
}
