import FoundationEssentials
import VaultCrypto
import VaultFormat

/// One message of git's credential helper protocol (gitcredentials(7)): `key=value` lines, each
/// ended by LF, up to a blank line or the end of the input.
///
/// The secret values (`password`, `oauth_refresh_token`) are read into guarded memory; the
/// others are text. Keys vault does not use (`capability[]`, `wwwauth[]`, `state[]`…) are
/// passed over; `url` is split into `protocol`, `host` and `path` as git itself does.
public struct GitCredential {
  /// `protocol`, such as `https`, `http` or `ssh`.
  public var scheme: String?
  /// `host`, with `:PORT` when git gave one.
  public var host: String?
  /// `path`, sent when `credential.useHttpPath` is set: the repository's path, without a
  /// leading slash.
  public var path: String?
  /// `username`.
  public var username: String?
  /// `password`.
  public var password: SecureBytes?
  /// `password_expiry_utc`: seconds since the epoch, as text.
  public var passwordExpiry: String?
  /// `oauth_refresh_token`.
  public var oauthRefreshToken: SecureBytes?

  /// The largest message read, in bytes.
  public static let maximumByteCount = 64 * 1024

  /// Why a message was refused.
  public enum Fault: Error, Equatable, Sendable {
    /// More than `maximumByteCount` bytes.
    case tooLarge
    /// The line (from 1) has no `=`.
    case lineWithoutEquals(line: Int)
    /// The line (from 1) is not UTF-8, or a value holds a NUL.
    case notText(line: Int)
  }

  /// An empty message.
  public init() {}

  /// Reads a message from `bytes`.
  ///
  /// - Throws: `Fault`.
  public init(parsing bytes: SecureBytes) throws {
    guard bytes.count <= Self.maximumByteCount else { throw Fault.tooLarge }
    let fields: [(key: String, value: SecureBytes, line: Int)] = try bytes.withBytes { raw in
      var out: [(key: String, value: SecureBytes, line: Int)] = []
      var start = 0
      var number = 0
      while start < raw.count {
        number += 1
        var end = start
        while end < raw.count && raw[end] != 10 { end += 1 }
        let next = end + 1
        defer { start = next }
        if end == start { break }
        // A CR before the LF is the line ending's, as git itself reads it.
        if raw[end - 1] == 13 { end -= 1 }
        if end == start { break }
        guard let equals = raw[start..<end].firstIndex(of: UInt8(ascii: "=")) else {
          throw Fault.lineWithoutEquals(line: number)
        }
        guard let key = String(validating: raw[start..<equals], as: UTF8.self),
          !raw[equals + 1..<end].contains(0)
        else { throw Fault.notText(line: number) }
        out.append((key, SecureBytes(copying: raw[equals + 1..<end]), number))
      }
      return out
    }
    for (key, value, line) in fields {
      func text() throws -> String {
        guard let text = String(validating: value.unprotectedBytes, as: UTF8.self) else {
          throw Fault.notText(line: line)
        }
        return text
      }
      switch key {
      case "protocol": scheme = try text()
      case "host": host = try text()
      case "path": path = try text()
      case "username": username = try text()
      case "password": password = value
      case "password_expiry_utc": passwordExpiry = try text()
      case "oauth_refresh_token": oauthRefreshToken = value
      case "url":
        if let target = CredentialTarget(url: try text()) {
          scheme = target.scheme
          host = target.authority
          path = target.path
        }
      default: continue
      }
    }
  }

  /// The answer to `get`: `username`, `password`, then `password_expiry_utc` and
  /// `oauth_refresh_token` when known, each a line; in guarded memory.
  public func answer() -> SecureBytes {
    var out = ByteBuilder(packed: true)
    if let username { out.append(Array("username=\(username)\n".utf8)) }
    if let password {
      out.append(Array("password=".utf8))
      password.withBytes { out.append($0) }
      out.append(10)
    }
    if let passwordExpiry { out.append(Array("password_expiry_utc=\(passwordExpiry)\n".utf8)) }
    if let oauthRefreshToken {
      out.append(Array("oauth_refresh_token=".utf8))
      oauthRefreshToken.withBytes { out.append($0) }
      out.append(10)
    }
    return out.finish()
  }
}

/// Where a credential is used: a protocol, a host with its port, and a repository path, as a
/// request names them and as an entry's `url:` field (or its name under the credentials folder)
/// does.
public struct CredentialTarget: Equatable, Sendable {
  /// The protocol, lower case.
  public let scheme: String
  /// The host, lower case, then `:PORT` unless it is the protocol's default.
  public let authority: String
  /// The path without slashes at either end, nil when there is none.
  public let path: String?

  /// A target.
  public init(scheme: String, authority: String, path: String?) {
    self.scheme = scheme.asciiLowercased
    self.authority = Self.normalized(authority: authority, scheme: self.scheme)
    let trimmed = path.map { $0.trimmingSlashes } ?? ""
    self.path = trimmed.isEmpty ? nil : trimmed
  }

  /// The target of a URL such as `https://example.org:8443/team/repo.git`; nil when it has no
  /// protocol or no host (`URLComponents`, RFC 3986).
  public init?(url text: String) {
    let trimmed = text.trimmingBlanks
    guard let parts = URLComponents(string: trimmed), let scheme = parts.scheme,
      let host = parts.host, !host.isEmpty
    else { return nil }
    let authority = host + (parts.port.map { ":\($0)" } ?? "")
    self.init(scheme: scheme, authority: authority, path: parts.path)
  }

  /// The target a request names, nil without a protocol and a host, or with a host that is
  /// not one (a `/`, `@`, `\\`, `?`, `#`, white space or a control character in it).
  public init?(_ request: GitCredential) {
    guard let scheme = request.scheme, !scheme.isEmpty, let host = request.host, !host.isEmpty,
      !host.unicodeScalars.contains(where: {
        $0.value <= 0x20 || $0.value == 0x7F || "/@\\?#".unicodeScalars.contains($0)
      })
    else { return nil }
    self.init(scheme: scheme, authority: host, path: request.path)
  }

  /// How well this target (an entry's) serves `request`: nil when it does not (another
  /// protocol, host or port, or a path that is not the request's); 2 when their paths are the
  /// same, 1 when this one has none and so serves every path of the host.
  public func serves(_ request: CredentialTarget) -> Int? {
    guard scheme == request.scheme, authority == request.authority else { return nil }
    guard let path else { return 1 }
    return path == request.path ? 2 : nil
  }

  private static let defaultPorts = ["https": "443", "http": "80", "ssh": "22", "ftp": "21"]

  /// `host[:port]` with the host in lower case and a default port left out.
  private static func normalized(authority: String, scheme: String) -> String {
    var host = authority
    var port: String?
    if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
      host = String(authority[..<colon])
      port = String(authority[authority.index(after: colon)...])
    }
    // ASCII alone is folded: a Unicode fold would make U+212A (Kelvin) a "k".
    host = host.asciiLowercased
    guard let port, port != defaultPorts[scheme] else { return host }
    return host + ":" + port
  }
}

extension String {
  /// With A to Z as a to z, and nothing else changed.
  fileprivate var asciiLowercased: String {
    String(decoding: utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
  }

  /// Without `/` at either end.
  fileprivate var trimmingSlashes: String {
    var view = Substring(self)
    while view.first == "/" { view = view.dropFirst() }
    while view.last == "/" { view = view.dropLast() }
    return String(view)
  }
}
