import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// The pure pieces of format 2: padding, aggregates, row hashes, the two new subkeys and the state
/// chain.
///
/// Expected hashes come from CPython's `hashlib.blake2b`, not from libsodium; the snippet above
/// each vector reproduces it (`m = bytes(range(32))`, the master key used throughout).
final class StatePrimitivesTests: XCTestCase {
  let master = key(Array(0...31))
  let vaultID = try! VaultID(hex("101112131415161718191a1b1c1d1e1f"))

  // MARK: Padding

  func testPaddedLengthsOfSampleSizes() {
    let expected: [(Int, Int)] = [
      (0, 256), (1, 256), (256, 256), (257, 272), (1000, 1024), (65536, 65536),
      (65537, 67584), (1_000_000, 1_015_808),
    ]
    for (length, padded) in expected {
      XCTAssertEqual(Padding.paddedLength(length), padded, "\(length)")
    }
  }

  /// Padmé's bound: with E = floor(log2 L), the overhead is below L / E, so below L / 8 here.
  func testPaddingNeverShrinksAndCostsLessThanAnEighth() {
    var lengths = Array(0...5000)
    var length = 5001
    while length < 1 << 40 {
      lengths += [length - 1, length, length + 1]
      length = length * 3 / 2 + 7
    }
    for length in lengths {
      let padded = Padding.paddedLength(length)
      XCTAssertGreaterThanOrEqual(padded, length)
      XCTAssertEqual(Padding.paddedLength(padded), padded, "\(length): padding is idempotent")
      guard length > 256 else {
        XCTAssertEqual(padded, 256)
        continue
      }
      let exponent = Int.bitWidth - 1 - length.leadingZeroBitCount
      XCTAssertLessThan((padded - length) * exponent, length, "\(length)")
      XCTAssertLessThanOrEqual(padded - length, length / 8, "\(length)")
    }
  }

  // MARK: Aggregate

  func testAggregateCarriesAndBorrowsAcrossEveryByte() throws {
    let ones = [UInt8](repeating: 0xff, count: 32)
    let one = [1] + [UInt8](repeating: 0, count: 31)
    var sum = try XCTUnwrap(Aggregate(bytes: ones))
    sum.add(one)
    XCTAssertEqual(sum, .zero)
    var difference = Aggregate.zero
    difference.subtract(one)
    XCTAssertEqual(difference.bytes, ones)
    XCTAssertNil(Aggregate(bytes: Array(ones.prefix(31))))
    XCTAssertNil(Aggregate(bytes: ones + [0]))
  }

  func testAggregateMatchesPythonIntegers() throws {
    // A = int.from_bytes(bytes(range(32)), 'little'); B = the bytes below, likewise;
    // ((A + B) % 2**256).to_bytes(32, 'little').hex(), and the same for A - B.
    let b = hex("c8ed12375c81a6cbf0153a5f84a9cef3183d6287acd1f61b40658aafd4f91e43")
    var sum = try XCTUnwrap(Aggregate(bytes: Array(0...31)))
    sum.add(b)
    XCTAssertEqual(
      sum.bytes, hex("c8ee143a6086acd2f81e446a90b6dc02294e749ac0e60c33587ea4caf0163d62"))
    var difference = try XCTUnwrap(Aggregate(bytes: Array(0...31)))
    difference.subtract(b)
    XCTAssertEqual(
      difference.bytes, hex("3813efcba7835f3b17f3cfab87633f1bf7d3af8b67431ffbd7b38f6b4723ffdb"))
  }

  func testAggregateSumsInAnyOrderAndSubtractionUndoesAddition() {
    let terms = (0..<40).map { GenericHash.hash(parts: [[UInt8($0)]]) }
    var forward = Aggregate.zero
    for term in terms { forward.add(term) }
    var backward = Aggregate.zero
    for term in terms.reversed() { backward.add(term) }
    var shuffled = Aggregate.zero
    for index in 0..<terms.count { shuffled.add(terms[index * 7 % terms.count]) }
    XCTAssertEqual(forward, backward)
    XCTAssertEqual(forward, shuffled)
    XCTAssertNotEqual(forward, .zero)
    var twice = forward
    twice.add(terms[3])
    XCTAssertNotEqual(twice, forward, "a term added twice does not cancel out")
    twice.subtract(terms[3])
    XCTAssertEqual(twice, forward)
    for term in terms { forward.subtract(term) }
    XCTAssertEqual(forward, .zero)
  }

  // MARK: Subkeys

  func testRowsAndStateSubkeysMatchBLAKE2bWithSaltAndPersonal() {
    // hashlib.blake2b(b'', key=m, salt=(7).to_bytes(8, 'little') + bytes(8),
    //   person=b'vaultrow' + bytes(8), digest_size=32).hexdigest(); id 8, b'vaultsta' for state.
    XCTAssertEqual(
      master.derive(.rows).bytes.unprotectedBytes,
      hex("a004bb041f46158237196df159ab0e7fb896cfd91ca105a7d5476238efb986ba"))
    XCTAssertEqual(
      master.derive(.state).bytes.unprotectedBytes,
      hex("9a6de6964316ac74efec0fc6c438dca9dc1a849fe112a033b58dbd9dc488fa00"))
  }

  // MARK: Row hashes

  let sampleRow: [RowHash.Column] = [
    .integer(-2), .blob([0xde, 0xad]), .null, .integer(0x0102_0304_0506_0708),
  ]

  func testRowEncodingIsTaggedAndLengthPrefixed() {
    XCTAssertEqual(
      RowHash.encode(table: RowHash.records, columns: sampleRow),
      hex("01" + "01fffffffffffffffe" + "0200000002dead" + "00" + "010102030405060708"))
    XCTAssertEqual(RowHash.encode(table: RowHash.chunks, columns: []), [2])
  }

  func testRowHashMatchesKeyedBLAKE2b() {
    // hashlib.blake2b(b'vault.row.v2' + bytes.fromhex('0101fffffffffffffffe0200000002dead0001'
    //   '0102030405060708'), key=<the rows subkey above>, digest_size=32).hexdigest()
    XCTAssertEqual(
      RowHash.hash(key: master.derive(.rows), table: RowHash.records, columns: sampleRow),
      hex("951584fddd10fb1b40c4c26919d16369ce1f6cb0f3e13aa8289c9b95429ff5b2"))
  }

  func testAnyChangeToARowChangesItsHash() {
    let rows = master.derive(.rows)
    func hash(_ table: UInt8, _ columns: [RowHash.Column]) -> [UInt8] {
      RowHash.hash(key: rows, table: table, columns: columns)
    }
    let original = hash(RowHash.records, sampleRow)
    var changed = sampleRow
    changed[0] = .integer(-1)
    XCTAssertNotEqual(hash(RowHash.records, changed), original)
    changed = sampleRow
    changed[2] = .integer(0)
    XCTAssertNotEqual(hash(RowHash.records, changed), original)
    XCTAssertNotEqual(hash(RowHash.chunks, sampleRow), original)
    XCTAssertNotEqual(
      RowHash.hash(key: master.derive(.state), table: RowHash.records, columns: sampleRow), original
    )
    // One byte moved from the first blob to the second: the same bytes, a different row.
    let split = hash(RowHash.chunks, [.blob([1, 2]), .blob([3])])
    let moved = hash(RowHash.chunks, [.blob([1]), .blob([2, 3])])
    XCTAssertNotEqual(split, moved)
    XCTAssertNotEqual(
      RowHash.encode(table: 2, columns: [.blob([1, 2]), .blob([3])]),
      RowHash.encode(table: 2, columns: [.blob([1]), .blob([2, 3])]))
  }

  // MARK: State chain

  /// The summary inputs: header digest `bytes(range(32))`, buckets `bytes(i % 251 for i in
  /// range(8192))`, chunks `bytes([0xaa]) * 32`.
  let headerDigest: [UInt8] = Array(0...31)
  let buckets: [UInt8] = (0..<8192).map { UInt8($0 % 251) }
  let chunks = [UInt8](repeating: 0xaa, count: 32)
  let sampleSummary = hex("cc54cfef2ae16b5a1b4fc6bd427354057423dc4595d9e69b2f4da68bec56e2cb")

  func testSummaryMatchesBLAKE2b() {
    // b = lambda d: hashlib.blake2b(d, digest_size=32).digest()
    // b(b'vault.state-summary.v2' + bytes(range(32)) + b(buckets) + bytes([0xaa]) * 32).hex()
    XCTAssertEqual(
      StateLink.summary(headerDigest: headerDigest, buckets: buckets, chunks: chunks),
      sampleSummary)
  }

  func testMACMatchesKeyedBLAKE2b() {
    // hashlib.blake2b(b'vault.state.v2' + bytes(range(0x10, 0x20)) + (258).to_bytes(8, 'big')
    //   + bytes([0x11]) * 32 + summary, key=<the state subkey above>, digest_size=32).hexdigest()
    let mac = StateLink.mac(
      key: master.derive(.state), vaultID: vaultID, generation: 258,
      previous: [UInt8](repeating: 0x11, count: 32), summary: sampleSummary)
    XCTAssertEqual(mac, hex("cc30b92b3ef15e0e60eb7e559424892c977afe8e3cafb9e6fb05b1e43ef14801"))
  }

  /// `count` consecutive links from generation 1, newest first.
  func chain(_ count: Int, key: SymmetricKey) -> [StateLink] {
    var links: [StateLink] = []
    for index in 0..<count {
      let summary = GenericHash.hash(parts: [[UInt8(index)]])
      links.insert(
        StateLink.next(after: links.first, summary: summary, key: key, vaultID: vaultID), at: 0)
    }
    return links
  }

  func testNextLinksTheChainAndVerifies() throws {
    let stateKey = master.derive(.state)
    let links = chain(3, key: stateKey)
    XCTAssertEqual(links.map(\.generation), [3, 2, 1])
    XCTAssertEqual(links[2].previous, StateLink.genesis)
    XCTAssertEqual(links[0].previous, links[1].mac)
    XCTAssertEqual(links[1].previous, links[2].mac)
    for link in links { XCTAssertTrue(link.verifies(key: stateKey, vaultID: vaultID)) }
    XCTAssertFalse(links[0].verifies(key: master.derive(.rows), vaultID: vaultID))
    XCTAssertFalse(links[0].verifies(key: stateKey, vaultID: try VaultID(Array(0...15))))
    var tampered = links[0]
    tampered.summary[0] ^= 1
    XCTAssertFalse(tampered.verifies(key: stateKey, vaultID: vaultID))
    tampered = links[0]
    tampered.mac.removeLast()
    XCTAssertFalse(tampered.verifies(key: stateKey, vaultID: vaultID))
    // Correct MACs, but not a chain's shape: a first link with a previous, a generation 0.
    for (generation, previous) in [(1, links[1].mac), (0, StateLink.genesis)] {
      let odd = StateLink(
        generation: Int64(generation), previous: previous, summary: sampleSummary,
        mac: StateLink.mac(
          key: stateKey, vaultID: vaultID, generation: Int64(generation), previous: previous,
          summary: sampleSummary))
      XCTAssertFalse(odd.verifies(key: stateKey, vaultID: vaultID), "\(generation)")
    }
  }

  func testRelationOfAChainToARememberedLink() {
    let stateKey = master.derive(.state)
    let links = chain(5, key: stateKey)
    func relation(_ chain: [StateLink], _ remembered: StateLink) -> StateLink.Relation {
      StateLink.relation(
        of: chain, to: (remembered.generation, remembered.mac), key: stateKey, vaultID: vaultID)
    }
    XCTAssertEqual(relation(links, links[0]), .same)
    XCTAssertEqual(relation(links, links[1]), .descendant)
    XCTAssertEqual(relation(links, links[3]), .descendant)
    XCTAssertEqual(relation(Array(links.dropFirst(2)), links[0]), .older)
    XCTAssertEqual(relation([], links[0]), .forked)

    // Another link at the remembered generation: the same chain up to generation 4, then a fork.
    let other = StateLink.next(
      after: links[1], summary: sampleSummary, key: stateKey, vaultID: vaultID)
    XCTAssertEqual(other.generation, links[0].generation)
    XCTAssertEqual(relation([other] + links.dropFirst(), links[0]), .forked)
    XCTAssertEqual(relation([other] + links.dropFirst(), links[1]), .descendant)

    // A link on the walk that fails to verify.
    var broken = links
    broken[1].summary[0] ^= 1
    XCTAssertEqual(relation(broken, links[3]), .forked)
    broken = links
    broken[0].mac[0] ^= 1
    XCTAssertEqual(relation(broken, links[0]), .forked)

    // A gap: generation 4 left out, so 5 does not lead to 3.
    XCTAssertEqual(relation([links[0]] + links.dropFirst(2), links[2]), .forked)
    // The remembered link is older than the oldest stored one.
    XCTAssertEqual(relation(Array(links.prefix(2)), links[3]), .forked)
  }
}
