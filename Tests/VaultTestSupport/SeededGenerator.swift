import Glibc

/// A random number generator that replays from its seed (SplitMix64), for the fault runs and
/// fuzzers: each prints its seed, and `VAULT_TEST_SEED=N` runs it again with the same choices.
public struct SeededGenerator: RandomNumberGenerator {
  /// The seed this run started from.
  public let seed: UInt64
  private var state: UInt64

  /// A generator from `VAULT_TEST_SEED` when set, else from a fresh random seed.
  public init(environment: [String: String]) {
    self.init(
      seed: environment["VAULT_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
    )
  }

  /// A generator that starts from `seed`.
  public init(seed: UInt64) {
    self.seed = seed
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The test tiers: the default, and the stress tier `VAULT_TESTS=all` adds.
///
/// The stress tier (`.ci/run` sets it) holds the guarantees, the fault runs, every byte of the
/// tamper suite, large imports and the full rounds of the races; the default `swift test` runs a
/// bounded sample of each loop instead.
public enum TestTier {
  /// True when `VAULT_TESTS=all`.
  public static var all: Bool { getenv("VAULT_TESTS").map { String(cString: $0) } == "all" }

  /// `stress` with `VAULT_TESTS=all`, else `sample`: the rounds of a loop in each tier.
  public static func rounds(sample: Int, stress: Int) -> Int { all ? stress : sample }
}
