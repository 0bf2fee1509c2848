import VaultAgent
import XCTest

@testable import VaultCLI

/// The words the command line gives the agent socket's failures and the protocol rules a peer
/// broke: each exact line, as users saw it when the core carried the rule as a sentence (and
/// Swift printed the failure).
final class AgentWordsTests: XCTestCase {
  func testEachBrokenRuleInTheKeyNotTakenLine() {
    let cases: [(AgentProtocolError, String)] = [
      (.unknownMessageType, #"malformed("unknown message type")"#),
      (.bytesAfterMessage, #"malformed("bytes after the message")"#),
      (.pathNotAbsolute, #"malformed("a vault path that is not absolute")"#),
      (.environmentEntryWithoutEquals, #"malformed("an environment entry without \'=\'")"#),
      (.umaskOutOfBounds, #"malformed("a umask out of bounds")"#),
      (.terminalFlagOutOfBounds, #"malformed("a terminal flag out of bounds")"#),
      (.pinDescriptorOutOfBounds, #"malformed("a PIN descriptor out of bounds")"#),
      (.messageEndsEarly, #"malformed("the message ends early")"#),
      (.fieldEndsEarly, #"malformed("a field ends early")"#),
      (.textNotUTF8, #"malformed("a text field that is not UTF-8")"#),
      (.listEndsEarly, #"malformed("a list ends early")"#),
      (.keyWrongLength, #"malformed("a key of the wrong length")"#),
      (.tooManyDescriptors, #"malformed("too many descriptors")"#),
      (.lengthOutOfBounds, #"malformed("a message length out of bounds")"#),
    ]
    for (rule, shown) in cases {
      let error = AgentError.keyNotTaken(.malformed(rule))
      XCTAssertEqual(error.exitCode, .failure)
      XCTAssertEqual(error.message, "the unlock agent did not take the key (\(shown))")
      XCTAssertNil(error.hint)
    }
  }

  func testTheOtherFailuresKeepTheirWords() {
    XCTAssertEqual(AgentWords.words(.closed), "closed")
    XCTAssertEqual(AgentWords.words(.system(104)), "system(104)")
  }
}
