import CPlatform
import Glibc

/// libassuan, GnuPG's Assuan library (the protocol pinentry programs speak), loaded with
/// `dlopen` when a PIN is asked through a pinentry: every pinentry program depends on
/// `libassuan.so.0`, so a machine with one has it, and a `vault` that never asks this way never
/// loads it.
///
/// The functions are libassuan 2's stable C API (`assuan.h`): `assuan_new_ext` with an
/// allocator that wipes what it frees (`vault_wiping_malloc`), so the lines that carried the PIN
/// are wiped; `assuan_pipe_connect`, which forks and runs the program with its standard input and
/// output on the connection and closes every other descriptor in it; `assuan_transact`;
/// `assuan_write_line`; `assuan_get_pid`; `assuan_begin_confidential`; `assuan_release`.
struct Assuan {
  /// Why the library cannot be used.
  enum Failure: Error, Equatable {
    /// `libassuan.so.0` cannot be loaded: the loader's message.
    case notLoaded(String)
    /// The library loaded has no function of this name.
    case lacksSymbol(String)
  }

  /// `struct assuan_malloc_hooks`.
  struct MallocHooks {
    var malloc: @convention(c) (Int) -> UnsafeMutableRawPointer?
    var realloc: @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?
    var free: @convention(c) (UnsafeMutableRawPointer?) -> Void
  }

  /// `gpg_error_t (*)(void *, const void *, size_t)`: a D line's data.
  typealias DataCallback =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> UInt32
  /// `gpg_error_t (*)(void *, const char *)`: an inquiry or a status line.
  typealias LineCallback =
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UInt32

  typealias NewExt =
    @convention(c) (
      UnsafeMutablePointer<OpaquePointer?>?, UInt32, UnsafeMutableRawPointer?,
      UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
    ) -> UInt32
  typealias Release = @convention(c) (OpaquePointer?) -> Void
  typealias PipeConnect =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?,
      UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32
    ) -> UInt32
  typealias Transact =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, DataCallback?, UnsafeMutableRawPointer?,
      LineCallback?, UnsafeMutableRawPointer?, LineCallback?, UnsafeMutableRawPointer?
    ) -> UInt32
  typealias WriteLine = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> UInt32
  typealias GetPID = @convention(c) (OpaquePointer?) -> pid_t
  typealias Confidential = @convention(c) (OpaquePointer?) -> Void

  let newExt: NewExt
  let release: Release
  let pipeConnect: PipeConnect
  let transact: Transact
  let writeLine: WriteLine
  let getPID: GetPID
  let beginConfidential: Confidential

  /// `GPG_ERR_SOURCE_USER_1`, the error source of an application.
  static let errorSource: UInt32 = 32

  /// The allocator libassuan is given: `vault_wiping_malloc` and its kin.
  nonisolated(unsafe) static var hooks = MallocHooks(
    malloc: { vault_wiping_malloc($0) }, realloc: { vault_wiping_realloc($0, $1) },
    free: { vault_wiping_free($0) })

  /// The library, looked up once.
  static let shared: Result<Assuan, Failure> = {
    guard let handle = dlopen("libassuan.so.0", RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "libassuan.so.0 not found"
      return .failure(.notLoaded(reason))
    }
    func symbol<T>(_ name: String, as type: T.Type) throws -> T {
      guard let address = dlsym(handle, name) else { throw Failure.lacksSymbol(name) }
      return unsafeBitCast(address, to: type)
    }
    return Result {
      Assuan(
        newExt: try symbol("assuan_new_ext", as: NewExt.self),
        release: try symbol("assuan_release", as: Release.self),
        pipeConnect: try symbol("assuan_pipe_connect", as: PipeConnect.self),
        transact: try symbol("assuan_transact", as: Transact.self),
        writeLine: try symbol("assuan_write_line", as: WriteLine.self),
        getPID: try symbol("assuan_get_pid", as: GetPID.self),
        beginConfidential: try symbol("assuan_begin_confidential", as: Confidential.self))
    }.mapError { $0 as? Failure ?? .notLoaded("\($0)") }
  }()

  /// The code of a `gpg_error_t` (its low 16 bits).
  static func code(_ error: UInt32) -> UInt32 { error & 0xFFFF }
  /// `GPG_ERR_CANCELED` and `GPG_ERR_FULLY_CANCELED`: the user chose Cancel.
  static let cancelledCodes: Set<UInt32> = [99, 198]
  /// `GPG_ERR_TIMEOUT`: the pinentry's own timeout (`SETTIMEOUT`) passed.
  static let timeoutCode: UInt32 = 62
}
