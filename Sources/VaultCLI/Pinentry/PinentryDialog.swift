import CPlatform
import Dispatch
import Glibc
import Synchronization
import VaultCrypto

/// One pinentry program, started for one unlock and spoken to over Assuan (libassuan): the
/// texts it shows, the PIN it reads, a message shown while the sensor is asked.
///
/// The PIN comes back in a D line: libassuan percent-decodes it into the data callback, which
/// copies it into guarded memory; libassuan's own buffers are wiped when freed (`Assuan.hooks`).
/// The program inherits this process's environment (the caller puts the client's display
/// variables in it first) and no descriptor but its two pipes.
package final class PinentryDialog {
  /// Why the dialog ended without a PIN.
  enum Failure: Error, Equatable {
    /// libassuan is missing, or the program could not be started: the program and the reason.
    case notStarted(program: String, reason: String)
    /// The user chose Cancel (or closed the window).
    case cancelled(program: String)
    /// The pinentry's own timeout (`SETTIMEOUT`) passed with nothing typed.
    case timedOut(program: String)
    /// The program ended, or answered what is not the pinentry protocol: its `gpg_error_t`.
    case broke(program: String, code: UInt32)
    /// The PIN it sent is longer than vault reads (`LineReader.maximum` bytes).
    case tooLong(program: String)
    /// It did not greet, or answer a command, within `replySeconds`, and was ended.
    case unresponsive(program: String)
  }

  /// Seconds vault waits for the greeting and for the answer to every command but `GETPIN`
  /// (a pinentry answers them at once) before it ends the program.
  static let replySeconds = 15

  /// Seconds a pinentry waits for the user before it gives up (`SETTIMEOUT`).
  package static let timeoutSeconds = 60

  let program: String
  /// Seconds `getPIN` waits before it kills the program (`killSeconds`; a test's shorter
  /// limit in a debug build).
  var killAfter = Double(killSeconds)
  /// Seconds to wait for a greeting or another answer (`replySeconds`; a test's shorter limit
  /// in a debug build).
  var replyAfter = Double(replySeconds)
  private let library: Assuan
  private var context: OpaquePointer?

  /// Starts `program` (an absolute path) and sends it `options` (`OPTION name=value`, each
  /// refused option ignored, as gpg-agent does for an older pinentry).
  ///
  /// - Throws: `Failure.notStarted`.
  init(program: String, options: [String], replyAfter: Double = Double(replySeconds)) throws {
    self.program = program
    self.replyAfter = replyAfter
    switch Assuan.shared {
    case .failure(let failure):
      let reason =
        switch failure {
        case .notLoaded(let why): "libassuan cannot be loaded (\(why))"
        case .lacksSymbol(let name): "the libassuan found has no \(name)"
        }
      throw Failure.notStarted(program: program, reason: reason)
    case .success(let library):
      self.library = library
    }
    var made: OpaquePointer?
    let created = withUnsafeMutablePointer(to: &Assuan.hooks) { hooks in
      library.newExt(&made, Assuan.errorSource, UnsafeMutableRawPointer(hooks), nil, nil)
    }
    guard created == 0, let made else {
      throw Failure.notStarted(program: program, reason: "libassuan could not make a context")
    }
    context = made
    let name = strdup(program)
    defer { free(name) }
    var argv: [UnsafePointer<CChar>?] = [UnsafePointer(name), nil]
    var keep: [Int32] = [-1]
    // The child leaves its pid in a shared page, so a program that never greets is ended.
    let page = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
    let shared = page == MAP_FAILED ? nil : page
    defer { if let shared { munmap(shared, 4096) } }
    let address = Int(bitPattern: shared)
    let watchdog = Watchdog(seconds: replyAfter) {
      guard let pid = UnsafeMutablePointer<Int32>(bitPattern: address)?.pointee, pid > 0 else {
        return
      }
      vault_end_program(pid, SIGKILL)
    }
    let connected = argv.withUnsafeMutableBufferPointer { arguments in
      keep.withUnsafeMutableBufferPointer { fds in
        // The child drops a set-group-id install's group before its exec (attack review).
        library.pipeConnect(
          made, name, arguments.baseAddress, fds.baseAddress, vault_assuan_atfork(), shared, 0)
      }
    }
    watchdog.cancel()
    guard connected == 0 else {
      library.release(made)
      context = nil
      if watchdog.fired { throw Failure.unresponsive(program: program) }
      throw Failure.notStarted(
        program: program, reason: "it did not start or did not greet (error \(connected))")
    }
    for option in options { _ = transact("OPTION " + Self.escaped(option)) }
  }

  deinit { close() }

  /// Sends `command` with `text` (percent-escaped).
  ///
  /// The commands are `SETDESC`, `SETPROMPT`, `SETERROR`, `SETTITLE` and `SETTIMEOUT`. A
  /// pinentry that does not know one answers `ERR`, which is passed over, as gpg-agent does;
  /// one that has ended fails the `GETPIN` that follows.
  func set(_ command: String, _ text: String) {
    _ = transact(command + " " + Self.escaped(text))
  }

  /// Seconds vault itself waits for a `GETPIN` answer before it kills the program: its own
  /// timeout and a margin, for a pinentry that ignores `SETTIMEOUT` or never answers.
  static let killSeconds = timeoutSeconds + 15

  /// Asks for the PIN (`GETPIN`) and returns what was typed, in guarded memory.
  ///
  /// - Throws: `Failure.cancelled`, `.timedOut` (also when the program had to be killed after
  ///   `killSeconds`), `.broke` or `.tooLong`.
  func getPIN() throws -> SecureBytes {
    guard let context else { throw Failure.broke(program: program, code: 0) }
    let pid = library.getPID(context)
    let watchdog = Watchdog(seconds: killAfter) { vault_end_program(pid, SIGKILL) }
    defer { watchdog.cancel() }
    library.beginConfidential(context)
    let sink = PINSink()
    let error = withExtendedLifetime(sink) {
      library.transact(
        context, "GETPIN",
        { opaque, data, count in
          guard let opaque, let data else { return 0 }
          let sink = Unmanaged<PINSink>.fromOpaque(opaque).takeUnretainedValue()
          sink.append(UnsafeRawBufferPointer(start: data, count: count))
          return 0
        }, Unmanaged.passUnretained(sink).toOpaque(), nil, nil, nil, nil)
    }
    guard error == 0 else {
      if unanswered { throw Failure.unresponsive(program: program) }
      throw watchdog.fired ? Failure.timedOut(program: program) : failure(error)
    }
    guard !sink.overflowed else { throw Failure.tooLong(program: program) }
    return sink.bytes
  }

  /// Shows `text` in a message (`MESSAGE`) without waiting for it to be dismissed: `close`
  /// takes it away.
  func showMessage(_ text: String) {
    guard let context, transact("SETDESC " + Self.escaped(text)) == 0 else { return }
    _ = library.writeLine(context, "MESSAGE")
  }

  /// Ends the program (SIGTERM, which a pinentry showing a message also obeys) and the
  /// connection; libassuan waits for it.
  func close() {
    guard let context else { return }
    let pid = library.getPID(context)
    if pid > 0 {
      vault_end_program(pid, SIGTERM)
      // One that ignores SIGTERM (a message it keeps showing) is killed after 2 seconds.
      var status: Int32 = 0
      var waited = 0
      while waited < 200 && waitpid(pid, &status, WNOHANG) == 0 {
        usleep(10_000)
        waited += 1
      }
      if waited == 200 { vault_end_program(pid, SIGKILL) }
    }
    library.release(context)
    self.context = nil
  }

  /// Sends `line` and waits for its answer, at most `replyAfter` seconds: a program that does
  /// not answer is ended (and what follows fails), its silence noted in `unanswered`.
  private func transact(_ line: String) -> UInt32 {
    guard let context else { return 1 }
    let pid = library.getPID(context)
    let watchdog = Watchdog(seconds: replyAfter) { vault_end_program(pid, SIGKILL) }
    defer { watchdog.cancel() }
    let error = library.transact(context, line, nil, nil, nil, nil, nil, nil)
    if watchdog.fired { unanswered = true }
    return error
  }

  /// True once the program left a command unanswered and was ended.
  private var unanswered = false

  private func failure(_ error: UInt32) -> Failure {
    let code = Assuan.code(error)
    if Assuan.cancelledCodes.contains(code) { return .cancelled(program: program) }
    if code == Assuan.timeoutCode { return .timedOut(program: program) }
    return .broke(program: program, code: error)
  }

  /// `text` as an Assuan argument: `%`, CR and LF percent-escaped, cut to fit a line (1000
  /// bytes with the command).
  static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.unicodeScalars.append(scalar)
      }
      if out.utf8.count > 900 { break }
    }
    return out
  }
}

/// Where the data callback puts the PIN: guarded memory of `LineReader.maximum` bytes.
private final class PINSink {
  private let buffer = SecureBytes(count: LineReader.maximum)
  private var count = 0
  /// True when more came than the buffer holds (the PIN is then refused).
  private(set) var overflowed = false

  func append(_ data: UnsafeRawBufferPointer) {
    guard !overflowed, data.count <= LineReader.maximum - count else {
      overflowed = true
      return
    }
    buffer.withMutableBytes { out in
      for (index, byte) in data.enumerated() { out[count + index] = byte }
    }
    count += data.count
  }

  /// What came, in guarded memory.
  var bytes: SecureBytes {
    let out = SecureBytes(count: count)
    buffer.withBytes { source in
      out.withMutableBytes { target in
        for index in 0..<count { target[index] = source[index] }
      }
    }
    return out
  }
}

/// Runs an action once after a delay unless cancelled first, on a thread of its own.
private final class Watchdog: @unchecked Sendable {
  private let state = Mutex(State.waiting)

  private enum State { case waiting, fired, cancelled }

  /// Starts the wait: `action` runs after `seconds` unless `cancel` came first.
  init(seconds: Double, action: @escaping @Sendable () -> Void) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
      let due = state.withLock { current -> Bool in
        guard current == .waiting else { return false }
        current = .fired
        return true
      }
      if due { action() }
    }
  }

  /// True once the action ran.
  var fired: Bool { state.withLock { $0 == .fired } }

  /// Keeps the action from running, when it has not yet.
  func cancel() {
    state.withLock { current in if current == .waiting { current = .cancelled } }
  }
}
