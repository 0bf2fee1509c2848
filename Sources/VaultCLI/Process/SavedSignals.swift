import Glibc

/// The dispositions of some signals, saved whole with `sigaction(2)` and put back.
///
/// Never kept as handler values in a collection: `SIG_IGN` is the address 1, which Swift takes
/// for no valid pointer and uses to mark an `Optional`'s absence, so an array or `zip` of
/// `sighandler_t?` holding it ends its iteration there, and the signals after it were never
/// put back (a SIGTERM handler left installed by a command started with SIGINT ignored, as a
/// background job is). The records are read and written by index.
struct SavedSignals {
  /// The signals.
  let numbers: [Int32]
  private let actions: [sigaction]

  /// Saves the dispositions of `numbers`.
  init(_ numbers: [Int32]) {
    self.numbers = numbers
    var saved: [sigaction] = []
    for index in numbers.indices {
      var action = sigaction()
      sigaction(numbers[index], nil, &action)
      saved.append(action)
    }
    actions = saved
  }

  /// Puts every saved disposition back.
  func restore() {
    for index in numbers.indices {
      var action = actions[index]
      sigaction(numbers[index], &action, nil)
    }
  }
}
