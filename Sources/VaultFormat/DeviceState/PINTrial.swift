import FoundationEssentials
import Glibc
import VaultCrypto

extension Vault {
  /// What one PIN trial found: the keyslot opened, or the KEK the wrong PIN gave.
  package enum PINTrial<R> {
    case opened(R)
    case wrong(kek: SymmetricKey)
  }

  /// One counted PIN trial: the attempt is counted before `trial` runs the KDF; a wrong PIN is
  /// recorded by the tag of its KEK, so the same wrong PIN typed again counts once.
  ///
  /// - Throws: `.wrongPIN`, `.wrongPINDelayed`, the limiter's `.pinDelay`, or what `trial`
  ///   throws.
  package static func checkPIN<R>(limiter: PINLimiter, _ trial: () throws -> PINTrial<R>) throws
    -> R
  {
    let began = try limiter.begin()
    switch try trial() {
    case .opened(let result): return result
    case .wrong(let kek):
      let tag = GenericHash.keyed(key: kek.bytes, parts: [DomainLabel.pinRepeat.bytes])
      throw try limiter.failed(tag: tag, began: began)
    }
  }
}
