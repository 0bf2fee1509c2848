import Glibc

/// The progress line of `vault import` and `vault export` on standard error, drawn only when
/// standard error is a terminal: the count (of the total, once known), the rate and, after the
/// first `settling` seconds of a step, the time left; redrawn at most ten times a second, cut to
/// the terminal's width (a wrapped line could not be erased), and cleared at the end, so nothing
/// of it stays in the scrollback.
final class ImportProgress {
  /// Seconds between two redraws.
  static let interval = 0.1
  /// Seconds of a step before its time left is shown (the first rate says little).
  static let settling = 2.0

  /// When the current step (`verb`) began.
  private var start = ImportProgress.now()
  private var verb: String?
  private var drawn = -Double.infinity
  private var visible = false

  /// A progress line for this command, or nil when standard error is no terminal.
  static func onStandardError() -> ImportProgress? {
    isatty(2) == 1 ? ImportProgress() : nil
  }

  /// Seconds on the monotonic clock.
  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// `12,345`.
  static func grouped(_ number: Int) -> String {
    let digits = Array(String(number))
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return out
  }

  /// `0:07`, `12:30`, `1:02:03`.
  static func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded(.up))
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    let tail = (rest < 10 ? "0" : "") + "\(rest)"
    if hours > 0 { return "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + tail }
    return "\(minutes):" + tail
  }

  /// The line for `done` items of `total` (nil while unknown) after `elapsed` seconds, at most
  /// `width` characters (all of them for nil).
  static func line(_ verb: String, done: Int, total: Int?, elapsed: Double, width: Int? = nil)
    -> String
  {
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    var out = "\(verb) \(grouped(done))"
    if let total, total > 0 {
      out += "/\(grouped(total)) (\(done * 100 / total)%)"
    }
    out += "  \(grouped(Int(rate.rounded())))/s"
    if let total, rate > 0, done < total, elapsed >= settling {
      out += "  ETA \(clock(Double(total - done) / rate))"
    }
    if let width, out.count > width { out = String(out.prefix(max(width, 0))) }
    return out
  }

  /// The terminal's width in columns less one (so the cursor never wraps), nil when unknown.
  static func width() -> Int? {
    var size = winsize()
    guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 1 else { return nil }
    return Int(size.ws_col) - 1
  }

  /// Shows `done` items `verb`ed so far (of `total` once known), unless the last redraw was
  /// less than `interval` ago (the last item is always shown).
  func update(_ verb: String, done: Int, total: Int?) {
    let now = Self.now()
    if verb != self.verb {
      self.verb = verb
      start = now
    }
    guard now - drawn >= Self.interval || done == total else { return }
    drawn = now
    emit(
      "\r\u{1B}[2K"
        + Self.line(verb, done: done, total: total, elapsed: now - start, width: Self.width()))
    visible = true
  }

  /// Erases the line.
  func clear() {
    guard visible else { return }
    emit("\r\u{1B}[2K")
    visible = false
  }

  private func emit(_ text: String) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let n = write(2, base + offset, buffer.count - offset)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
      }
    }
  }
}
