import Glibc
import VaultCrypto
import VaultFormat

/// One message between a vault command and the unlock agent (vault(5), AGENT PROTOCOL).
///
/// On the socket a message is `u32be(length) || type (1 byte) || fields`, `length` counting the
/// type and the fields, at most `AgentMessage.maximumByteCount`. A field is a `u32be` or a byte
/// string `u32be(length) || bytes`; a list is `u32be(count)` strings. Descriptors travel beside
/// the first bytes of a `run` request (`SCM_RIGHTS`).
public enum AgentMessage: Equatable {
  /// Keep `key` for the vault `vaultID` at the absolute path `path`, idle timeout `idle`
  /// seconds (renewed by use), hard limit `AgentHoldings.hardLimit`: as the plain hold, or, with
  /// `grant` (a session's 32-byte grant id, `SessionToken.grantID`), as that session's grant.
  /// `clock` is the caller's `VAULT_TEST_BOOTCLOCK` (empty when unset), which only a debug
  /// build's agent reads.
  case hold(
    vaultID: VaultID, path: String, idle: UInt32, key: SecureBytes, clock: String,
    grant: [UInt8]?)
  /// Is the vault at the absolute path `path` held (plainly, or, with `token`, by that
  /// session's grant)? Answered by `held` or `notHeld`. `clock` as for `hold`.
  case status(path: String, clock: String, token: SecureBytes?)
  /// Let go of the vault `vaultID` (when given) and of whatever vault is held for `path` (when
  /// given); of every vault when neither is given; with `token`, of that session's grant alone.
  /// Answered by `done`.
  case forget(vaultID: VaultID?, path: String?, token: SecureBytes?)
  /// Run a command on the vault at `path` with the held key: answered at once by `notHeld`, or,
  /// after the command, by `exited` or `signalled` (and `exec` before them for `vault run`).
  case run(AgentRunRequest)
  /// Pass the signal on to the command the agent runs for this connection.
  case signal(Int32)
  /// Done.
  case done
  /// The vault is held: seconds until its idle timeout and its hard limit.
  case held(vaultID: VaultID, idleLeft: UInt32, hardLeft: UInt32)
  /// The vault is not held (never, or no more).
  case notHeld
  /// The command asks its caller to replace itself with `path` (`vault run`): the arguments and
  /// the environment (`NAME=value` strings, secrets among them).
  case exec(path: String, arguments: [String], environment: [String])
  /// The command ended with this exit code.
  case exited(Int32)
  /// The command was ended by this signal.
  case signalled(Int32)
  /// The command is about to write its first byte to the client's standard output: a death
  /// after this leaves output that may be incomplete.
  case outputBegan
  /// The command needs the PIN the client keeps (`--pin-fd`, never sent): the client runs it
  /// in its own process. Nothing was done.
  case runHere
  /// The command reads a secret line of the `--pin-fd` the client keeps, other than the PIN (an
  /// export's passphrase): it comes with one end of a new socket pair, into which the client
  /// writes one line of that descriptor, newline included, then closes it.
  case lineWanted
  /// The agent's first message on every connection, before it reads anything: the client
  /// checks who wrote it (`AgentSocket.receiveHello`).
  case hello

  /// The absolute form of a vault file's `path`, as requests carry it: its folder resolved
  /// (`realpath(3)`), then "/" and its name; `path` itself when the folder cannot be resolved.
  public static func absolutePath(_ path: String) -> String {
    let folder = PrivateFiles.parentFolder(of: path)
    let name = String(path.split(separator: "/").last ?? Substring(path))
    guard let resolved = realpath(folder, nil) else { return path }
    defer { free(resolved) }
    let base = String(cString: resolved)
    return (base == "/" ? "" : base) + "/" + name
  }

  /// The largest message accepted, in bytes (an environment and a command line fit in it).
  public static let maximumByteCount = 4 << 20

  enum Kind: UInt8 {
    case hold = 1, status, forget, run, signal
    case done = 0x41, held, notHeld, exec, exited, signalled, outputBegan, runHere,
      lineWanted, hello
  }

  /// The message's bytes, length first, in guarded memory (a `hold` carries a key, an `exec`
  /// secrets).
  ///
  /// - Throws: `AgentError.requestTooLarge` when the message is larger than `maximumByteCount`.
  public func encoded() throws -> SecureBytes {
    var out = FrameWriter()
    defer { out.wipe() }
    switch self {
    case .hold(let id, let path, let idle, let key, let clock, let grant):
      out.kind(.hold)
      out.bytes(id.bytes)
      out.string(path)
      out.integer(idle)
      out.secret(key)
      out.string(clock)
      out.bytes(grant ?? [])
    case .status(let path, let clock, let token):
      out.kind(.status)
      out.string(path)
      out.string(clock)
      out.secret(token)
    case .forget(let id, let path, let token):
      out.kind(.forget)
      out.bytes(id?.bytes ?? [])
      out.string(path ?? "")
      out.secret(token)
    case .run(let request):
      out.kind(.run)
      request.write(&out)
    case .signal(let number):
      out.kind(.signal)
      out.integer(UInt32(bitPattern: number))
    case .done: out.kind(.done)
    case .held(let id, let idle, let hard):
      out.kind(.held)
      out.bytes(id.bytes)
      out.integer(idle)
      out.integer(hard)
    case .notHeld: out.kind(.notHeld)
    case .exec(let path, let arguments, let environment):
      out.kind(.exec)
      out.string(path)
      out.list(arguments)
      out.list(environment)
    case .exited(let code):
      out.kind(.exited)
      out.integer(UInt32(bitPattern: code))
    case .signalled(let number):
      out.kind(.signalled)
      out.integer(UInt32(bitPattern: number))
    case .outputBegan: out.kind(.outputBegan)
    case .runHere: out.kind(.runHere)
    case .lineWanted: out.kind(.lineWanted)
    case .hello: out.kind(.hello)
    }
    guard out.body.count <= Self.maximumByteCount else {
      throw AgentError.requestTooLarge
    }
    let frame = SecureBytes(count: 4 + out.body.count)
    frame.withMutableBytes { buffer in
      let length = UInt32(out.body.count)
      for index in 0..<4 { buffer[index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index)) }
      for (index, byte) in out.body.enumerated() { buffer[4 + index] = byte }
    }
    return frame
  }

  /// Reads a message body (the bytes after the length).
  ///
  /// - Throws: `AgentProtocolError` for an unknown type, a field out of bounds, a wrong key
  ///   length or bytes left over.
  public static func decode(_ body: SecureBytes) throws -> AgentMessage {
    try body.withBytes { raw in
      var reader = FrameReader(raw)
      let message: AgentMessage
      switch Kind(rawValue: try reader.byte()) {
      case .hold:
        let id = try VaultID(reader.bytes())
        let path = try reader.string()
        let idle = try reader.integer()
        let key = try reader.secret(count: SymmetricKey.byteCount)
        let clock = try reader.string()
        let grant = try reader.bytes()
        guard grant.isEmpty || grant.count == SessionToken.secretByteCount else {
          throw AgentProtocolError.grantWrongLength
        }
        message = .hold(
          vaultID: id, path: path, idle: idle, key: key, clock: clock,
          grant: grant.isEmpty ? nil : grant)
      case .status:
        message = .status(
          path: try reader.string(), clock: try reader.string(), token: try reader.token())
      case .forget:
        let id = try reader.bytes()
        let path = try reader.string()
        message = .forget(
          vaultID: id.isEmpty ? nil : try VaultID(id), path: path.isEmpty ? nil : path,
          token: try reader.token())
      case .run: message = .run(try AgentRunRequest(&reader))
      case .signal: message = .signal(Int32(bitPattern: try reader.integer()))
      case .done: message = .done
      case .held:
        message = .held(
          vaultID: try VaultID(reader.bytes()), idleLeft: try reader.integer(),
          hardLeft: try reader.integer())
      case .notHeld: message = .notHeld
      case .exec:
        message = .exec(
          path: try reader.string(), arguments: try reader.list(),
          environment: try reader.list())
      case .exited: message = .exited(Int32(bitPattern: try reader.integer()))
      case .signalled: message = .signalled(Int32(bitPattern: try reader.integer()))
      case .outputBegan: message = .outputBegan
      case .runHere: message = .runHere
      case .lineWanted: message = .lineWanted
      case .hello: message = .hello
      case nil: throw AgentProtocolError.unknownMessageType
      }
      guard reader.atEnd else { throw AgentProtocolError.bytesAfterMessage }
      return message
    }
  }
}

/// What a `run` request carries: the command line, the caller's environment and umask, and
/// which descriptors come with it.
///
/// The descriptors are, in order: standard input, output and error, the working folder, then the
/// terminal when `hasTerminal`. The `--pin-fd` descriptor never comes (vault(1) SECURITY).
public struct AgentRunRequest: Equatable, Sendable {
  /// The absolute path of the vault file the command uses.
  public var path: String
  /// The arguments after the program name.
  public var arguments: [String]
  /// The caller's environment.
  public var environment: [String: String]
  /// The umask the caller was started with.
  public var umask: UInt32
  /// True when the caller's terminal comes with the request.
  public var hasTerminal: Bool
  /// The number `--pin-fd` named, or -1: the client keeps that descriptor, and a command that
  /// would read the PIN is handed back to it (`AgentMessage.runHere`).
  public var pinFD: Int32
  /// The secret of the client's session token (`VAULT_SESSION`), or nil: the request is then
  /// served by that session's grant alone, never by the plain hold.
  public var token: SecureBytes?

  /// A request.
  public init(
    path: String, arguments: [String], environment: [String: String], umask: UInt32,
    hasTerminal: Bool, pinFD: Int32, token: SecureBytes? = nil
  ) {
    self.path = path
    self.arguments = arguments
    self.environment = environment
    self.umask = umask
    self.hasTerminal = hasTerminal
    self.pinFD = pinFD
    self.token = token
  }

  /// How many descriptors come with it.
  ///
  /// Never the `--pin-fd` descriptor: `pinFD` only says the client keeps one (since 0.12.0).
  public var descriptorCount: Int { 4 + (hasTerminal ? 1 : 0) }

  fileprivate func write(_ out: inout FrameWriter) {
    out.string(path)
    out.list(arguments)
    out.list(environment.map { $0.key + "=" + $0.value }.sorted())
    out.integer(umask)
    out.integer(hasTerminal ? 1 : 0)
    out.integer(UInt32(bitPattern: pinFD))
    out.secret(token)
  }

  fileprivate init(_ reader: inout FrameReader) throws {
    path = try reader.string()
    guard path.hasPrefix("/") else { throw AgentProtocolError.pathNotAbsolute }
    arguments = try reader.list()
    var variables: [String: String] = [:]
    for entry in try reader.list() {
      guard let equals = entry.utf8.firstIndex(of: UInt8(ascii: "=")) else {
        throw AgentProtocolError.environmentEntryWithoutEquals
      }
      let name = String(entry[..<equals])
      if variables[name] == nil { variables[name] = String(entry[entry.index(after: equals)...]) }
    }
    environment = variables
    umask = try reader.integer()
    guard umask <= 0o777 else { throw AgentProtocolError.umaskOutOfBounds }
    let terminal = try reader.integer()
    guard terminal <= 1 else { throw AgentProtocolError.terminalFlagOutOfBounds }
    hasTerminal = terminal == 1
    pinFD = Int32(bitPattern: try reader.integer())
    guard (-1...1023).contains(pinFD) else {
      throw AgentProtocolError.pinDescriptorOutOfBounds
    }
    token = try reader.token()
  }
}

/// The rule of the agent protocol (vault(5), AGENT PROTOCOL) that bytes from a peer broke: the
/// field or the check, never a sentence (the command line words it).
///
/// `AgentMessage.decode` throws every case but the last two, which are the socket's own
/// (`AgentSocket.receive`, as `AgentSocket.Failure.malformed`).
public enum AgentProtocolError: Error, Equatable, Sendable {
  /// The type byte names no message.
  case unknownMessageType
  /// Bytes are left after the message's last field.
  case bytesAfterMessage
  /// A `run` request's vault path does not start with `/`.
  case pathNotAbsolute
  /// An entry of a `run` request's environment has no `=`.
  case environmentEntryWithoutEquals
  /// A `run` request's umask is over `0o777`.
  case umaskOutOfBounds
  /// A `run` request's terminal flag is neither 0 nor 1.
  case terminalFlagOutOfBounds
  /// A `run` request's `--pin-fd` number is outside -1...1023.
  case pinDescriptorOutOfBounds
  /// The body ends inside its type byte or an integer field.
  case messageEndsEarly
  /// A byte string's length is larger than the bytes left.
  case fieldEndsEarly
  /// A text field is not UTF-8, or holds a NUL byte.
  case textNotUTF8
  /// A list's count is larger than the bytes left could hold.
  case listEndsEarly
  /// A key field is not `SymmetricKey.byteCount` bytes long.
  case keyWrongLength
  /// A `hold`'s grant id is neither empty nor 32 bytes long.
  case grantWrongLength
  /// A request's session token is neither empty nor 32 bytes long.
  case tokenWrongLength
  /// More descriptors came beside the message than the receiver takes.
  case tooManyDescriptors
  /// The length in front of the message is 0 or over `AgentMessage.maximumByteCount`.
  case lengthOutOfBounds
}

/// Builds a message body; wiped by its owner.
struct FrameWriter {
  var body: [UInt8] = []

  mutating func kind(_ kind: AgentMessage.Kind) { body.append(kind.rawValue) }

  mutating func integer(_ value: UInt32) {
    for shift in stride(from: 24, through: 0, by: -8) {
      body.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
    }
  }

  mutating func bytes(_ bytes: [UInt8]) {
    integer(UInt32(bytes.count))
    body += bytes
  }

  mutating func string(_ text: String) { bytes(Array(text.utf8)) }

  mutating func list(_ items: [String]) {
    integer(UInt32(items.count))
    for item in items { string(item) }
  }

  /// A secret as a byte string (empty for nil).
  mutating func secret(_ value: SecureBytes?) {
    guard let value else { return integer(0) }
    value.withBytes { bytes(Array($0)) }
  }

  mutating func wipe() { VaultCrypto.wipe(&body) }
}

/// Reads a message body, every length checked against what is left.
struct FrameReader {
  let raw: UnsafeRawBufferPointer
  var offset = 0

  init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

  var atEnd: Bool { offset == raw.count }

  mutating func byte() throws -> UInt8 {
    guard offset < raw.count else { throw AgentProtocolError.messageEndsEarly }
    defer { offset += 1 }
    return raw[offset]
  }

  mutating func integer() throws -> UInt32 {
    guard raw.count - offset >= 4 else { throw AgentProtocolError.messageEndsEarly }
    var value: UInt32 = 0
    for index in 0..<4 { value = value << 8 | UInt32(raw[offset + index]) }
    offset += 4
    return value
  }

  private mutating func span() throws -> Range<Int> {
    let count = Int(try integer())
    guard count <= raw.count - offset else { throw AgentProtocolError.fieldEndsEarly }
    defer { offset += count }
    return offset..<offset + count
  }

  mutating func bytes() throws -> [UInt8] { Array(raw[try span()]) }

  mutating func string() throws -> String {
    let range = try span()
    guard let text = String(validating: raw[range], as: UTF8.self), !text.utf8.contains(0) else {
      throw AgentProtocolError.textNotUTF8
    }
    return text
  }

  mutating func list() throws -> [String] {
    let count = Int(try integer())
    // Each item takes at least its four length bytes.
    guard count <= (raw.count - offset) / 4 else { throw AgentProtocolError.listEndsEarly }
    return try (0..<count).map { _ in try string() }
  }

  /// A session token's secret: an empty field (nil) or one of 32 bytes, in guarded memory.
  mutating func token() throws -> SecureBytes? {
    let range = try span()
    if range.isEmpty { return nil }
    guard range.count == SessionToken.secretByteCount else {
      throw AgentProtocolError.tokenWrongLength
    }
    let out = SecureBytes(count: range.count)
    out.withMutableBytes { buffer in
      for index in 0..<range.count { buffer[index] = raw[range.lowerBound + index] }
    }
    return out
  }

  /// A field of exactly `count` bytes, copied into guarded memory.
  mutating func secret(count: Int) throws -> SecureBytes {
    let range = try span()
    guard range.count == count else { throw AgentProtocolError.keyWrongLength }
    let out = SecureBytes(count: count)
    out.withMutableBytes { buffer in
      for index in 0..<count { buffer[index] = raw[range.lowerBound + index] }
    }
    return out
  }
}
