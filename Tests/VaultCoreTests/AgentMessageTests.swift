import XCTest

@testable import VaultAgent
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// The agent's wire format (vault(5) AGENT PROTOCOL): exact bytes, round trips, and the bounds
/// a request is refused for.
final class AgentMessageTests: XCTestCase {
  /// The body after the length, as `AgentMessage.decode` reads it.
  func body(_ message: AgentMessage) throws -> SecureBytes {
    try message.encoded().suffix(from: 4)
  }

  func testAStatusRequestIsItsDocumentedBytes() throws {
    let frame = try AgentMessage.status(path: "/v", clock: "", token: nil).encoded()
      .unprotectedBytes
    XCTAssertEqual(frame, [0, 0, 0, 15, 0x02, 0, 0, 0, 2, 0x2f, 0x76, 0, 0, 0, 0, 0, 0, 0, 0])
  }

  /// vault(5) AGENT PROTOCOL: a request with a session token carries its 32 bytes last.
  func testAStatusRequestWithATokenCarriesItsSecretLast() throws {
    let secret = SecureBytes(copying: Array(0...31) as [UInt8])
    let frame = try AgentMessage.status(path: "/v", clock: "", token: secret).encoded()
      .unprotectedBytes
    XCTAssertEqual(
      frame,
      [0, 0, 0, 47, 0x02, 0, 0, 0, 2, 0x2f, 0x76, 0, 0, 0, 0, 0, 0, 0, 32] + Array(0...31))
  }

  func testEveryMessageRoundTrips() throws {
    let id = VaultID.random()
    let request = AgentRunRequest(
      path: "/home/ada/v.db", arguments: ["get", "mail/work"],
      environment: ["HOME": "/home/ada", "X": "a=b"], umask: 0o022, hasTerminal: true, pinFD: 7)
    var withToken = request
    withToken.token = SecureBytes.random(count: 32)
    let token = SecureBytes.random(count: 32)
    let messages: [AgentMessage] = [
      .hold(
        vaultID: id, path: "/v", idle: 900, key: SecureBytes.random(count: 32), clock: "5",
        grant: nil),
      .hold(
        vaultID: id, path: "/v", idle: 60, key: SecureBytes.random(count: 32), clock: "",
        grant: Array(repeating: 7, count: 32)),
      .status(path: "/v", clock: "", token: nil), .status(path: "/v", clock: "", token: token),
      .forget(vaultID: id, path: nil, token: nil), .forget(vaultID: nil, path: nil, token: nil),
      .forget(vaultID: nil, path: nil, token: token), .run(request), .run(withToken),
      .signal(SIGINT), .done,
      .held(vaultID: id, idleLeft: 10, hardLeft: 20), .notHeld,
      .exec(path: "/bin/sh", arguments: ["sh", "-c", "x"], environment: ["A=1"]), .exited(3),
      .signalled(15), .outputBegan, .runHere, .lineWanted,
    ]
    for message in messages {
      XCTAssertEqual(try AgentMessage.decode(body(message)), message)
    }
    XCTAssertEqual(request.descriptorCount, 5, "0-2, the folder, the terminal; never the PIN's")
  }

  func testARunRequestWithARelativePathOrAWideUmaskIsRefused() throws {
    for (request, rule) in [
      (
        AgentRunRequest(
          path: "v.db", arguments: [], environment: [:], umask: 0o022, hasTerminal: false,
          pinFD: -1),
        AgentProtocolError.pathNotAbsolute
      ),
      (
        AgentRunRequest(
          path: "/v.db", arguments: [], environment: [:], umask: 0o1777, hasTerminal: false,
          pinFD: -1),
        .umaskOutOfBounds
      ),
      (
        AgentRunRequest(
          path: "/v.db", arguments: [], environment: [:], umask: 0o022, hasTerminal: false,
          pinFD: 1024),
        .pinDescriptorOutOfBounds
      ),
    ] {
      XCTAssertThrowsError(try AgentMessage.decode(body(.run(request)))) {
        XCTAssertEqual($0 as? AgentProtocolError, rule, "\($0)")
      }
    }
  }

  func testEachBrokenRuleIsNamed() throws {
    func refusal(_ bytes: [UInt8]) -> AgentProtocolError? {
      do {
        _ = try AgentMessage.decode(SecureBytes(copying: bytes))
        return nil
      } catch {
        return error as? AgentProtocolError
      }
    }
    let whole = try body(.status(path: "/v", clock: "", token: nil)).unprotectedBytes
    XCTAssertEqual(refusal([]), .messageEndsEarly)
    XCTAssertEqual(refusal([0x7f]), .unknownMessageType)
    XCTAssertEqual(refusal(whole + [0]), .bytesAfterMessage)
    XCTAssertEqual(refusal(Array(whole.prefix(3))), .messageEndsEarly)
    XCTAssertEqual(refusal([0x02, 0, 0, 0, 9, 0x2f]), .fieldEndsEarly)
    XCTAssertEqual(refusal([0x02, 0, 0, 0, 1, 0xff, 0, 0, 0, 0]), .textNotUTF8)
    XCTAssertEqual(refusal([0x44, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]), .listEndsEarly)
    let key = SecureBytes.random(count: 31)
    XCTAssertEqual(
      refusal(
        try body(.hold(vaultID: .random(), path: "/v", idle: 1, key: key, clock: "", grant: nil))
          .unprotectedBytes),
      .keyWrongLength)
    XCTAssertEqual(
      refusal(
        try body(
          .hold(
            vaultID: .random(), path: "/v", idle: 1, key: .random(count: 32), clock: "",
            grant: Array(repeating: 1, count: 31))
        ).unprotectedBytes),
      .grantWrongLength)
    XCTAssertEqual(
      refusal(
        try body(.status(path: "/v", clock: "", token: .random(count: 33))).unprotectedBytes),
      .tokenWrongLength)
    XCTAssertEqual(
      refusal(
        try body(.forget(vaultID: nil, path: nil, token: .random(count: 16))).unprotectedBytes),
      .tokenWrongLength)
    let terminal = AgentRunRequest(
      path: "/v.db", arguments: [], environment: [:], umask: 0o022, hasTerminal: false,
      pinFD: -1)
    var bytes = try body(.run(terminal)).unprotectedBytes
    // The terminal flag is the third integer from the end (then the PIN descriptor and the
    // empty token's length).
    bytes[bytes.count - 9] = 2
    XCTAssertEqual(refusal(bytes), .terminalFlagOutOfBounds)
    // An environment list of one entry without '=': path "/v", no arguments, ["A"].
    let environment: [UInt8] =
      [0x04, 0, 0, 0, 2, 0x2f, 0x76, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0x41]
    XCTAssertEqual(refusal(environment), .environmentEntryWithoutEquals)
  }

  func testTruncatedAndOversizedBodiesAreRefused() throws {
    let whole = try body(.status(path: "/v", clock: "", token: nil)).unprotectedBytes
    for cut in 0..<whole.count {
      XCTAssertThrowsError(try AgentMessage.decode(SecureBytes(copying: Array(whole.prefix(cut)))))
    }
    XCTAssertThrowsError(try AgentMessage.decode(SecureBytes(copying: whole + [0])), "bytes after")
    XCTAssertThrowsError(try AgentMessage.decode(SecureBytes(copying: [0x7f])), "unknown type")
    // A list count larger than the bytes left cannot make the reader allocate for it.
    XCTAssertThrowsError(
      try AgentMessage.decode(SecureBytes(copying: [0x44, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])))
    let key = SecureBytes.random(count: 31)
    XCTAssertThrowsError(
      try AgentMessage.decode(
        body(.hold(vaultID: .random(), path: "/v", idle: 1, key: key, clock: "", grant: nil))),
      "a key of 31 bytes")
  }
}
