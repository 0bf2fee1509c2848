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

/// The test tiers: `VAULT_TESTS=all` runs the fault runs and stress loops too (`.ci/run` sets
/// it); the default `swift test` leaves them out.
public enum TestTier {
  /// True when `VAULT_TESTS=all`.
  public static var all: Bool { getenv("VAULT_TESTS").map { String(cString: $0) } == "all" }
}
