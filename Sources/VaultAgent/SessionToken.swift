import CPlatform
import VaultCrypto
import VaultFormat

/// A session's token (vault(5), SESSIONS): 32 random bytes, the bearer credential of a grant the
/// unlock agent holds, and the folder of that agent's socket.
///
/// Its text is `grant1:` || hex(secret) || `:` || hex(folder), what `VAULT_SESSION` holds. The
/// agent keeps only `grantID`; a client sends `secret` to the agent of `folder` alone, after
/// identifying it (`AgentSocket.connect(folder:)`).
public struct SessionToken: Sendable {
  /// The 32 random bytes.
  public let secret: SecureBytes
  /// The absolute path of the folder whose `agent.sock` the grant was made on.
  public let folder: String

  /// What a `VAULT_SESSION` text turned out to be.
  public enum Parsed: Sendable {
    /// A token of this release.
    case token(SessionToken)
    /// 64 hex digits: a session of releases 0.3 to 0.12, whose file held the master key.
    case olderRelease
    /// Anything else.
    case malformed
  }

  /// The text's first characters, naming the form.
  static let prefix = "grant1:"
  /// Bytes of the secret.
  public static let secretByteCount = 32

  /// A token of `secret` (32 bytes) for the agent of `folder`.
  init(secret: SecureBytes, folder: String) {
    self.secret = secret
    self.folder = folder
  }

  /// A new token of 32 random bytes (`randombytes_buf`) for the agent listening in `folder`.
  public static func issue(folder: String) -> SessionToken {
    SessionToken(secret: SecureBytes.random(count: secretByteCount), folder: folder)
  }

  /// The grant id the agent keeps: BLAKE2b-32 keyed with `secret` of the label
  /// `DomainLabel.grant` (`crypto_generichash`, RFC 7693).
  public static func grantID(of secret: SecureBytes) -> [UInt8] {
    GenericHash.keyed(key: secret, parts: [DomainLabel.grant.bytes], outputLength: 32)
  }

  /// This token's grant id.
  public var grantID: [UInt8] { Self.grantID(of: secret) }

  /// The text of `VAULT_SESSION`, in guarded memory (it is the credential).
  public var text: SecureBytes {
    var out = Array(Self.prefix.utf8)
    out += Array(secret.unprotectedBytes.hex.utf8)
    out.append(UInt8(ascii: ":"))
    out += Array(Array(folder.utf8).hex.utf8)
    defer { wipe(&out) }
    return SecureBytes(copying: out)
  }

  /// Reads a `VAULT_SESSION` text.
  ///
  /// A token is `prefix`, 64 lower-case hex digits, `:`, then the hex of an absolute folder
  /// path without NUL whose `agent.sock` fits a Unix socket address.
  public static func parse(_ text: String) -> Parsed {
    let bytes = Array(text.utf8)
    if bytes.count == 2 * secretByteCount, var old = hexBytes(bytes[...]) {
      wipe(&old)
      return .olderRelease
    }
    let head = Array(prefix.utf8)
    let secretEnd = head.count + 2 * secretByteCount
    guard bytes.count > secretEnd + 1, Array(bytes[..<head.count]) == head,
      bytes[secretEnd] == UInt8(ascii: ":"),
      var secret = hexBytes(bytes[head.count..<secretEnd]),
      let path = hexBytes(bytes[(secretEnd + 1)...])
    else { return .malformed }
    defer { wipe(&secret) }
    guard path.first == UInt8(ascii: "/"), !path.contains(0),
      path.count + "/agent.sock".utf8.count <= Int(vault_unix_path_limit()),
      let folder = String(validating: path, as: UTF8.self)
    else { return .malformed }
    return .token(SessionToken(secret: SecureBytes(copying: secret), folder: folder))
  }

  /// Lower-case hex digits to bytes; nil for an odd count or any other character.
  private static func hexBytes(_ digits: ArraySlice<UInt8>) -> [UInt8]? {
    guard digits.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
      guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else {
        return nil
      }
      out.append(high << 4 | low)
      index += 2
    }
    return out
  }

  private static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
