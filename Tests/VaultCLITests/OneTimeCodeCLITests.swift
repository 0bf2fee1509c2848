import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault otp` and `vault otp --set` through the built binary: exact codes at fixed times, HOTP
/// counters stored without a revision and never reused, and every refusal with its exit code.
final class OneTimeCodeCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]

  /// The base32 of the RFC 6238 seeds (20, 32 and 64 ASCII digits).
  static let sha1 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
  static let sha256 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA===="
  static let sha512 =
    "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3"
    + "TQOJQGEZDGNA="
  static let hotp = "otpauth://hotp/Ex:alice?secret=\(sha1)&counter=0"
  /// RFC 4226 Appendix D, counters 0 to 9.
  static let hotpCodes = [
    "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871",
    "520489",
  ]

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
  }

  override func tearDown() { box = nil }

  @discardableResult
  func run(_ arguments: [String], stdin: String? = nil, time: Int? = nil) -> Subprocess.Result {
    var env = session
    if let time { env["VAULT_TEST_WALLCLOCK"] = "\(time)" }
    return box.vault(arguments, stdin: stdin.map { Array($0.utf8) }, env: env)
  }

  func add(_ name: String, _ content: String, file: StaticString = #filePath, line: UInt = #line) {
    let result = run(["add", name, "--force"], stdin: content)
    XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
  }

  func assertOutput(
    _ result: Subprocess.Result, _ stdout: String, stderr: String = "", status: Int32 = 0,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(result.status, status, result.stderrText, file: file, line: line)
    XCTAssertEqual(result.stdoutText, stdout, file: file, line: line)
    XCTAssertEqual(result.stderrText, stderr, file: file, line: line)
  }

  func testTOTPCodesAtTheRFC6238TimesForEveryAlgorithm() {
    add("t/sha1", "pw\notp: otpauth://totp/a?secret=\(Self.sha1)&digits=8\n")
    add("t/sha256", "pw\notpauth://totp/a?secret=\(Self.sha256)&digits=8&algorithm=SHA256\n")
    add("t/sha512", "pw\nOTP: otpauth://totp/a?secret=\(Self.sha512)&digits=8&algorithm=sha512")
    let table: [(Int, String, String, String)] = [
      (59, "94287082", "46119246", "90693936"),
      (1_111_111_109, "07081804", "68084774", "25091201"),
      (1_234_567_890, "89005924", "91819424", "93441116"),
      (20_000_000_000, "65353130", "77737706", "47863826"),
    ]
    for (time, sha1, sha256, sha512) in table {
      assertOutput(run(["otp", "t/sha1"], time: time), sha1)
      assertOutput(run(["otp", "t/sha256"], time: time), sha256)
      assertOutput(run(["otp", "t/sha512"], time: time), sha512)
    }
    assertOutput(
      run(["otp", "t/sha1", "--json"], time: 59),
      "{\"code\":\"94287082\",\"seconds_left\":1,\"period\":30}\n")
    assertOutput(
      run(["otp", "t/sha512", "--json"], time: 1_111_111_109),
      "{\"code\":\"25091201\",\"seconds_left\":1,\"period\":30}\n")
    add("t/60", "otpauth://totp/a?secret=\(Self.sha1)&period=60\n")
    assertOutput(
      run(["otp", "t/60", "--json"], time: 61),
      "{\"code\":\"287082\",\"seconds_left\":59,\"period\":60}\n")
  }

  func history(_ name: String) -> String { run(["history", name]).stdoutText }

  func testHOTPAdvancesItsStoredCounterWithoutARevision() {
    add("h", "pw\notp: \(Self.hotp)\n")
    let before = history("h")
    assertOutput(run(["otp", "h"]), Self.hotpCodes[0])
    assertOutput(run(["otp", "h"]), Self.hotpCodes[1])
    assertOutput(
      run(["otp", "h", "--json"]), "{\"code\":\"\(Self.hotpCodes[2])\",\"counter\":2}\n")
    XCTAssertEqual(history("h"), before)
    XCTAssertEqual(run(["check"]).status, 0)
    // A rename, a removal and a restore keep the counter (the record id stays).
    XCTAssertEqual(run(["mv", "h", "h2"]).status, 0)
    assertOutput(run(["otp", "h2"]), Self.hotpCodes[3])
    XCTAssertEqual(run(["rm", "h2"]).status, 0)
    assertOutput(
      run(["otp", "h2"]), "",
      stderr:
        "vault: error: the entry 'h2' was removed\nvault: hint: bring it back with: vault restore"
        + " h2\n", status: 3)
    XCTAssertEqual(run(["restore", "h2"]).status, 0)
    assertOutput(run(["otp", "h2"]), Self.hotpCodes[4])
    // A URI counter beyond the stored one wins; the stored one follows it.
    add("h2", "pw\notp: otpauth://hotp/x?secret=\(Self.sha1)&counter=8\n")
    assertOutput(run(["otp", "h2"]), Self.hotpCodes[8])
    add("h2", "pw\notp: \(Self.hotp)\n")
    assertOutput(run(["otp", "h2"]), Self.hotpCodes[9])
    // Another secret has a counter of its own.
    add("h2", "pw\notp: otpauth://hotp/x?secret=MZXW6YTBOJRGC6RB&counter=0\n")
    assertOutput(run(["otp", "h2", "--json"]), "{\"code\":\"958493\",\"counter\":0}\n")
    XCTAssertEqual(run(["check"]).status, 0)
  }

  func testTwoConcurrentCallsGetDifferentCodesAndAdvanceTheCounterTwice() {
    add("h", "pw\notp: \(Self.hotp)\n")
    for round in 0..<3 {
      let result = box.shell(
        "vault otp h > a & vault otp h > b & wait; cat a; echo; cat b", env: session)
      XCTAssertEqual(result.status, 0, result.stderrText)
      XCTAssertEqual(result.stderrText, "")
      let codes = result.stdoutText.split(separator: "\n").map(String.init)
      XCTAssertEqual(
        Set(codes), Set(Self.hotpCodes[(2 * round)...(2 * round + 1)]), "round \(round)")
    }
    assertOutput(
      run(["otp", "h", "--json"]), "{\"code\":\"\(Self.hotpCodes[6])\",\"counter\":6}\n")
  }

  func testPurgeRemovesTheCounterAndAForcedRenameMovesIt() {
    add("a", "pw\notp: \(Self.hotp)\n")
    add("b", "pw\notp: \(Self.hotp)\n")
    for _ in 0..<3 { run(["otp", "b"]) }
    assertOutput(run(["otp", "a"]), Self.hotpCodes[0])
    // b's versions (and its secret's counter) join a's history: the larger counter is kept.
    XCTAssertEqual(run(["mv", "a", "b", "--force"]).status, 0)
    XCTAssertEqual(run(["check"]).status, 0)
    assertOutput(run(["otp", "b"]), Self.hotpCodes[3])
    XCTAssertEqual(run(["purge", "b"]).status, 0)
    XCTAssertEqual(run(["check"]).status, 0)
    add("b", "pw\notp: \(Self.hotp)\n")
    assertOutput(run(["otp", "b"]), Self.hotpCodes[0])
  }

  func testSetFromStandardInput() {
    add("mail/work", "hunter2\nusername: alice\n")
    assertOutput(
      run(["otp", "mail/work", "--set"], stdin: "gezd gnbv gy3t qojq gezd gnbv gy3t qojq\n"), "",
      stderr: "Stored the one-time code of 'mail/work': TOTP, SHA1, 6 digits, every 30 s.\n")
    assertOutput(
      run(["get", "mail/work"]),
      "hunter2\nusername: alice\notp: otpauth://totp/mail%2Fwork?secret=\(Self.sha1)\n")
    assertOutput(run(["otp", "mail/work"], time: 59), "287082")
    let uri = "otpauth://totp/Ex:alice?secret=\(Self.sha256)&algorithm=SHA256&digits=8"
    assertOutput(
      run(["otp", "mail/work", "--set"], stdin: uri + "\r\n"), "",
      stderr: "Stored the one-time code of 'mail/work': TOTP, SHA256, 8 digits, every 30 s.\n")
    assertOutput(run(["get", "mail/work"]), "hunter2\nusername: alice\notp: \(uri)\n")
    assertOutput(run(["otp", "mail/work"], time: 59), "46119246")
    assertOutput(
      run(["otp", "h", "--set"], stdin: Self.hotp), "",
      stderr: "vault: error: no entry named 'h'\nvault: hint: see 'vault list'\n", status: 3)
    add("h", "pw")
    assertOutput(
      run(["otp", "h", "--set"], stdin: Self.hotp), "",
      stderr: "Stored the one-time code of 'h': HOTP, SHA1, 6 digits, from counter 0.\n")
    assertOutput(run(["get", "h"]), "pw\notp: \(Self.hotp)")
    XCTAssertTrue(history("h").hasPrefix("2  "), history("h"))
    XCTAssertTrue(history("h").contains("  otp --set  h  current\n"), history("h"))
  }

  func testEveryMalformedInputExits5AndStoresNothing() {
    add("x", "pw\n")
    let cases: [(String, String)] = [
      ("", "the one-time code secret is empty"),
      ("\n", "the one-time code secret is empty"),
      ("not base32!", OneTimeCodeCLITests.notBase32),
      ("otpauth://totp/x?secret=AB\nCD", OneTimeCodeCLITests.notBase32),
      (
        "otpauth://yotp/x?secret=\(Self.sha1)",
        "the otpauth URI's type 'yotp' is unknown: use otpauth://totp/... or otpauth://hotp/..."
      ),
      ("otpauth://totp/x?issuer=Ex", "the otpauth URI has no secret= parameter"),
      (
        "otpauth://totp/x?secret=\(Self.sha1)&digits=10",
        "the otpauth URI's digits must be 6, 7 or 8, not '10'"
      ),
      (
        "otpauth://totp/x?secret=\(Self.sha1)&period=0",
        "the otpauth URI's period must be whole seconds from 1 to 86400, not '0'"
      ),
      (
        "otpauth://totp/x?secret=\(Self.sha1)&algorithm=SHA3",
        "the otpauth URI's algorithm 'SHA3' is unknown: use SHA1, SHA256 or SHA512"
      ),
      (
        "otpauth://hotp/x?secret=\(Self.sha1)&counter=x",
        "the otpauth URI's counter must be a whole number from 0 to 9223372036854775807, not 'x'"
      ),
      (
        "otpauth://totp/x?secret=\(Self.sha1)&issuer=Ex\nCo",
        "a field's value is one line of UTF-8 text: no line break, NUL byte or invalid UTF-8"
      ),
    ]
    for (input, message) in cases {
      assertOutput(
        run(["otp", "x", "--set"], stdin: input), "", stderr: "vault: error: \(message)\n",
        status: 5)
    }
    assertOutput(run(["get", "x"]), "pw\n")
    XCTAssertTrue(history("x").hasPrefix("1  "), history("x"))
    // A malformed URI already stored is refused the same way when a code is asked for.
    add("bad", "pw\notp: otpauth://totp/x?secret=\(Self.sha1)&digits=9\n")
    assertOutput(
      run(["otp", "bad"]), "",
      stderr: "vault: error: the otpauth URI's digits must be 6, 7 or 8, not '9'\n", status: 5)
  }

  static let notBase32 =
    "the one-time code secret is not base32 (letters A to Z and digits 2 to 7, with or without ="
    + " padding and spaces)"

  func testMissingCodesNonTextContentAndTheCommandLine() {
    add("plain", "pw\nusername: alice\n")
    assertOutput(
      run(["otp", "plain"]), "",
      stderr:
        "vault: error: 'plain' has no one-time code (no otp field and no otpauth:// line)\n"
        + "vault: hint: store one with: vault otp plain --set\n", status: 3)
    assertOutput(
      run(["otp", "nothing"]), "",
      stderr: "vault: error: no entry named 'nothing'\nvault: hint: see 'vault list'\n", status: 3)
    let binary = box.vault(["add", "bin"], stdin: [0x6F, 0x74, 0x70, 0xFF, 0x0A], env: session)
    XCTAssertEqual(binary.status, 0, binary.stderrText)
    assertOutput(
      run(["otp", "bin"]), "",
      stderr:
        "vault: error: the content is not UTF-8 text (invalid UTF-8 or a NUL byte), so it has no"
        + " lines or fields\nvault: hint: read it whole with 'vault get'\n", status: 5)
    // The secret never comes from argv: --set takes no value, and the extra word is refused.
    let usage = "Usage: vault otp [--set] [--json] [--clip] [--clip-time SECONDS] NAME\n"
    assertOutput(
      run(["otp", "plain", "--set", Self.sha1]), "",
      stderr:
        "vault: error: one argument too many after NAME (not shown: it may be a secret)\n"
        + usage, status: 64)
    assertOutput(
      run(["otp", "plain", "--set=\(Self.sha1)"]), "",
      stderr: "vault: error: option '--set' takes no value\n" + usage, status: 64)
    assertOutput(
      run(["otp", "plain", "--set", "--json"], stdin: Self.sha1), "",
      stderr: "vault: error: --json cannot be used with --set\n" + usage, status: 64)
    assertOutput(
      run(["otp", "plain", "--clip-time", "5"]), "",
      stderr: "vault: error: --clip-time needs --clip\n" + usage, status: 64)
    assertOutput(run(["get", "plain"]), "pw\nusername: alice\n")
  }

  /// A code that cannot be written (a full disk, a clipboard that fails) uses up no counter.
  func testAnUndeliveredHOTPCodeUsesNoCounter() throws {
    add("h", "pw\notp: \(Self.hotp)\n")
    let full = box.shell("vault otp h > /dev/full", env: session)
    XCTAssertEqual(full.status, 1)
    XCTAssertEqual(
      full.stderrText, "vault: error: cannot write to standard output: No space left on device\n")
    guard ProgramSearch.find("xclip", ["PATH": "/usr/bin:/bin"]) != nil else {
      throw XCTSkip("xclip is not installed")
    }
    let failedCopy = box.vault(
      ["otp", "h", "--clip"], env: session.merging(["DISPLAY": ":97"]) { $1 })
    XCTAssertEqual(failedCopy.status, 1)
    XCTAssertEqual(
      failedCopy.stderrText, "vault: error: xclip failed with status 1; nothing was copied\n")
    assertOutput(
      run(["otp", "h", "--json"]), "{\"code\":\"\(Self.hotpCodes[0])\",\"counter\":0}\n")
  }

  /// An otp field that holds a bare base32 secret is a TOTP code; one that is neither a secret
  /// nor a URI is refused with its reason (exit 5), never taken for no code.
  func testAnOTPFieldThatIsNoURI() {
    add("bare", "pw\notp: JBSWY3DPEHPK3PXP\n")
    assertOutput(run(["otp", "bare"], time: 1_800_000_000), "309848")
    add("typo", "pw\notp: otpauth:/totp/x?secret=JBSWY3DPEHPK3PXP\n")
    assertOutput(
      run(["otp", "typo"]), "",
      stderr:
        "vault: error: the one-time code secret is not base32 (letters A to Z and digits 2 to 7,"
        + " with or without = padding and spaces)\n", status: 5)
    add("short", "pw\notp: ABCDEFGH\n")
    assertOutput(
      run(["otp", "short"]), "",
      stderr:
        "vault: error: the one-time code secret is 5 bytes; at least 10 (16 base32 characters, 80"
        + " bits) are needed\n", status: 5)
    // Spaces around a pasted URI are no part of it.
    XCTAssertEqual(
      run(["otp", "pasted", "--set"], stdin: "  otpauth://totp/x?secret=JBSWY3DPEHPK3PXP \n")
        .status, 3, "no entry yet")
    add("pasted", "pw\n")
    let set = run(
      ["otp", "pasted", "--set"], stdin: "  otpauth://totp/x?secret=JBSWY3DPEHPK3PXP \n")
    XCTAssertEqual(set.status, 0, set.stderrText)
    XCTAssertEqual(
      run(["get", "pasted"]).stdoutText, "pw\notp: otpauth://totp/x?secret=JBSWY3DPEHPK3PXP\n")
    assertOutput(
      run(["otp", "pasted", "--clip", "--json"]), "",
      stderr:
        "vault: error: --clip copies the code; --json prints it\n"
        + "Usage: vault otp [--set] [--json] [--clip] [--clip-time SECONDS] NAME\n", status: 64)
  }

  func testTheLastHOTPCounterIsRefusedNotWrapped() {
    add("end", "pw\notp: otpauth://hotp/x?secret=\(Self.sha1)&counter=9223372036854775806\n")
    XCTAssertEqual(
      run(["otp", "end", "--json"]).stdoutText.hasSuffix("\"counter\":9223372036854775806}\n"), true
    )
    assertOutput(
      run(["otp", "end"]), "",
      stderr: "vault: error: the HOTP counter of 'end' cannot grow any more\n", status: 5)
  }
}
