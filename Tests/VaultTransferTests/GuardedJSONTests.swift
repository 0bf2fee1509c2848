import Foundation
import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

final class GuardedJSONTests: XCTestCase {
  func parse(_ text: String, firstLine: Int = 1) throws -> GuardedJSON.Value {
    try parse(Array(text.utf8), firstLine: firstLine)
  }

  func parse(_ bytes: [UInt8], firstLine: Int = 1) throws -> GuardedJSON.Value {
    try GuardedJSON(reading: SecureBytes(copying: bytes), firstLine: firstLine).root
  }

  func string(_ value: GuardedJSON.Value?) -> [UInt8]? {
    value?.bytes()?.unprotectedBytes
  }

  /// The error `text` is refused with.
  func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line)
    -> TransferError?
  {
    refusal(Array(text.utf8), file: file, line: line)
  }

  func refusal(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line)
    -> TransferError?
  {
    do {
      _ = try parse(bytes)
      XCTFail("accepted", file: file, line: line)
      return nil
    } catch let error as TransferError {
      return error
    } catch {
      XCTFail("\(error)", file: file, line: line)
      return nil
    }
  }

  /// The refusal of `fault` on `line`.
  func syntax(_ fault: JSONSyntaxFault, line: Int) -> TransferError {
    TransferError(.jsonSyntax(fault), at: .line(line))
  }

  func testValuesKindsMembersInOrderAndLines() throws {
    let root = try parse(
      "{\"name\": \"mail/work\",\n \"n\": -12, \"x\": 1.5e3,\n \"list\": [true, false, null, {}],\n"
        + " \"e\": []}",
      firstLine: 7)
    XCTAssertEqual(root.kind, .object)
    XCTAssertEqual(root.line, 7)
    XCTAssertEqual(root.members.map(\.key), ["name", "n", "x", "list", "e"])
    XCTAssertEqual(root["name"]?.text(), "mail/work")
    XCTAssertEqual(root["n"]?.integer, -12)
    XCTAssertEqual(root["n"]?.line, 8)
    XCTAssertEqual(root["x"]?.kind, .number)
    XCTAssertNil(root["x"]?.integer, "1.5e3 is not written as an integer")
    let list = try XCTUnwrap(root["list"])
    XCTAssertEqual(list.line, 9)
    XCTAssertEqual(list.elements.map(\.kind), [.bool, .bool, .null, .object])
    XCTAssertEqual(list.elements.map(\.bool), [true, false, nil, nil])
    XCTAssertEqual(root["e"]?.elements.count, 0)
    XCTAssertNil(root["missing"])
    XCTAssertNil(list["name"], "an array has no members")
    XCTAssertNil(root["n"]?.bytes(), "a number is no string")
    XCTAssertEqual(try parse("  \"top\"  ").text(), "top")
    XCTAssertEqual(try parse("9223372036854775807").integer, Int.max)
    XCTAssertNil(try parse("9223372036854775808").integer, "beyond Int")
  }

  func testStringsDecodeEveryEscapeIntoExactBytes() throws {
    let root = try parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC\ud83d\ude00", "é€😀", "\u0000"]"#)
    let values = root.elements.map(string)
    XCTAssertEqual(values[0], Array("a\"b\\c/d\u{8}\u{C}\n\r\t".utf8))
    XCTAssertEqual(values[1], Array("é€😀".utf8))
    XCTAssertEqual(values[2], Array("é€😀".utf8))
    XCTAssertEqual(values[3], [0])
    XCTAssertEqual(root.elements[1].text(), "é€😀")
  }

  func testKeysCompareByBytes() throws {
    let root = try parse("{\"\\u0061\": 1, \"e\u{301}\": 2, \"\u{e9}\": 3}")
    XCTAssertEqual(root["a"]?.integer, 1, "an escaped key is its decoded bytes")
    XCTAssertEqual(root["e\u{301}"]?.integer, 2)
    XCTAssertEqual(root["\u{e9}"]?.integer, 3, "canonically equivalent keys are two keys")
    XCTAssertEqual(
      refusal("{\"a\": 1,\n\"\\u0061\": 2}"), syntax(.keyTwice("a"), line: 2))
  }

  /// Repeats are found one by one among an object's first 16 keys and by hash past them.
  func testARepeatedKeyIsFoundBeforeAndPastTheSixteenthMember() throws {
    func object(_ keys: [String]) -> String {
      "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ",\n") + "}"
    }
    let keys = (0..<40).map { "k\($0)" }
    let root = try parse(object(keys))
    XCTAssertEqual(root["k39"]?.integer, 39)
    XCTAssertEqual(root.members.count, 40)
    XCTAssertEqual(
      refusal(object(Array(keys[0..<5]) + ["k2"])), syntax(.keyTwice("k2"), line: 6))
    XCTAssertEqual(
      refusal(object(Array(keys[0..<15]) + ["k0"])), syntax(.keyTwice("k0"), line: 16))
    XCTAssertEqual(
      refusal(object(Array(keys[0..<16]) + ["k15"])),
      syntax(.keyTwice("k15"), line: 17))
    XCTAssertEqual(
      refusal(object(Array(keys[0..<30]) + ["k3"])), syntax(.keyTwice("k3"), line: 31))
    XCTAssertEqual(
      refusal(object(Array(keys[0..<30]) + ["k29"])),
      syntax(.keyTwice("k29"), line: 31))
  }

  func testEveryFaultIsRefusedWithItsLine() {
    XCTAssertEqual(refusal(""), syntax(.empty, line: 1))
    XCTAssertEqual(refusal("  \n "), syntax(.empty, line: 2))
    XCTAssertEqual(
      refusal("{\"a\": 1,}"), syntax(.expected(.memberName, found: UInt8(ascii: "}")), line: 1))
    XCTAssertEqual(
      refusal("[1,\n2,\n]"), syntax(.expected(.value, found: UInt8(ascii: "]")), line: 3))
    XCTAssertEqual(
      refusal("[1 2]"), syntax(.expected(.commaOrBracket, found: UInt8(ascii: "2")), line: 1))
    XCTAssertEqual(
      refusal("{\"a\" 1}"), syntax(.expected(.colon, found: UInt8(ascii: "1")), line: 1))
    XCTAssertEqual(
      refusal("{'a': 1}"), syntax(.expected(.memberName, found: UInt8(ascii: "'")), line: 1))
    XCTAssertEqual(refusal("[1] x"), syntax(.afterTheValue(found: UInt8(ascii: "x")), line: 1))
    XCTAssertEqual(refusal("{\"a\": [1,"), syntax(.endsWhereExpected(.value), line: 1))
    XCTAssertEqual(refusal("\"abc"), syntax(.stringNotClosed, line: 1))
    XCTAssertEqual(refusal("[NaN]"), syntax(.expected(.value, found: UInt8(ascii: "N")), line: 1))
    XCTAssertEqual(refusal("[tru]"), syntax(.expected(.value, found: UInt8(ascii: "t")), line: 1))
    XCTAssertEqual(refusal("// c\n1"), syntax(.expected(.value, found: UInt8(ascii: "/")), line: 1))
    XCTAssertEqual(refusal("01"), syntax(.leadingZero, line: 1))
    XCTAssertEqual(refusal("-"), syntax(.noDigitAfterMinus, line: 1))
    XCTAssertEqual(refusal("1."), syntax(.noDigitAfterPoint, line: 1))
    XCTAssertEqual(refusal("1e+"), syntax(.noDigitInExponent, line: 1))
    XCTAssertEqual(refusal(".5"), syntax(.expected(.value, found: UInt8(ascii: ".")), line: 1))
    XCTAssertEqual(
      refusal("\n\"a\tb\""),
      syntax(.controlCharacter(0x09), line: 2))
    XCTAssertEqual(refusal(#""\x41""#), syntax(.unknownEscape(UInt8(ascii: "x")), line: 1))
    XCTAssertEqual(refusal(#""\u12G4""#), syntax(.shortUnicodeEscape, line: 1))
    XCTAssertEqual(
      refusal(#"["ok", "\uD83D"]"#),
      syntax(.loneSurrogate(0xD83D), line: 1))
    XCTAssertEqual(
      refusal(#""\uDE00\uD83D""#),
      syntax(.loneSurrogate(0xDE00), line: 1))
    XCTAssertEqual(
      refusal(#""\uD83D\u0041""#),
      syntax(.loneSurrogate(0xD83D), line: 1))
    XCTAssertEqual(
      refusal([0xEF, 0xBB, 0xBF, 0x31]), syntax(.expected(.value, found: 0xEF), line: 1))
  }

  func testInvalidUTF8IsRefused() {
    let cases: [[UInt8]] = [
      [0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xC3], [0xE2, 0x82], [0x80],
    ]
    for bytes in cases {
      let text = [0x22] + bytes + [0x22]
      XCTAssertEqual(refusal(text), syntax(.invalidUTF8(bytes[0]), line: 1), "\(bytes)")
    }
    XCTAssertEqual(
      string(try? parse([0x22, 0xF0, 0x9F, 0x98, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0x22])),
      [0xF0, 0x9F, 0x98, 0x80, 0xF4, 0x8F, 0xBF, 0xBF], "the largest code point is U+10FFFF")
  }

  func testNestingIsLimited() throws {
    let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    XCTAssertEqual(try parse(deepest).kind, .array)
    let deeper = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    XCTAssertEqual(refusal(deeper), syntax(.nestedTooDeep(limit: 64), line: 1))
    let objects = String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65)
    XCTAssertEqual(refusal(objects), syntax(.nestedTooDeep(limit: 64), line: 1))
  }

  func testARangeOfTheSourceIsParsedInPlace() throws {
    let source = SecureBytes(copying: Array("junk{\"a\":\"b\"}junk".utf8))
    let root = try GuardedJSON(reading: source, range: 4..<13, firstLine: 3).root
    XCTAssertEqual(root["a"]?.text(), "b")
    XCTAssertThrowsError(try GuardedJSON(reading: source, range: 4..<14)) {
      XCTAssertEqual(
        $0 as? TransferError, syntax(.afterTheValue(found: UInt8(ascii: "j")), line: 1))
    }
  }

  /// Random mutations of valid texts never crash the parser; whatever it accepts, Foundation's
  /// JSON reader accepts too (this parser is the stricter), and every string it accepts decodes
  /// to the bytes Foundation reads.
  func testRandomMutationsNeverCrashAndAcceptOnlyJSON() throws {
    let seeds = [
      #"{"name":"a/b","content":"x\ny","fields":{"user":"é","n":[1,-2.5e3,true,null]}}"#,
      #"[{"k":"\u00e9\ud83d\ude00\"\\"},[],{},"",0,-0.0,1E+2]"#,
      #"{"items":[{"id":"1","login":{"uris":[{"uri":"https://x"}],"password":"p"}}]}"#,
    ].map { Array($0.utf8) }
    var random = SeededRandom(seed: 0x5EED)
    let alphabet =
      Array(#"{}[]":,\u0123456789abcdefABCDEF-+.eEtrufalsn "#.utf8) + [0x0A, 0xFF, 0xC3, 0xED]
    var accepted = 0
    for round in 0..<4000 {
      var bytes = seeds[round % seeds.count]
      for _ in 0..<(1 + Int(random.next() % 4)) {
        let at = Int(random.next() % UInt64(bytes.count + 1))
        switch random.next() % 4 {
        case 0 where at < bytes.count: bytes.remove(at: at)
        case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
        case 2 where at < bytes.count: bytes[at] = UInt8(truncatingIfNeeded: random.next())
        default: bytes = Array(bytes.prefix(at))
        }
      }
      guard let root = try? parse(bytes) else { continue }
      accepted += 1
      let foundation = try? JSONSerialization.jsonObject(
        with: Data(bytes), options: .fragmentsAllowed)
      XCTAssertNotNil(
        foundation, "accepted what Foundation refuses: \(String(decoding: bytes, as: UTF8.self))")
      if let foundation { compare(root, foundation) }
    }
    XCTAssertGreaterThan(accepted, 100, "the mutations keep some texts valid")
  }

  /// Every string of `value` equals the one Foundation read at the same place.
  func compare(
    _ value: GuardedJSON.Value, _ other: Any, file: StaticString = #filePath, line: UInt = #line
  ) {
    switch value.kind {
    case .string:
      XCTAssertEqual(
        value.bytes()?.unprotectedBytes, (other as? String).map { Array($0.utf8) }, file: file,
        line: line)
    case .array:
      let elements = other as? [Any] ?? []
      XCTAssertEqual(value.elements.count, elements.count, file: file, line: line)
      for (mine, theirs) in zip(value.elements, elements) { compare(mine, theirs) }
    case .object:
      let members = other as? [String: Any] ?? [:]
      XCTAssertEqual(value.members.count, members.count, file: file, line: line)
      for (key, mine) in value.members { compare(mine, members[key] as Any) }
    default: break
    }
  }
}

/// A small deterministic generator (SplitMix64), so a failing mutation can be found again.
struct SeededRandom {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
