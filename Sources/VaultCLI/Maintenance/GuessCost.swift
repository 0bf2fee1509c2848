import VaultCore
import VaultFormat

/// What guessing a PIN costs someone who holds both the vault file and the device state: the
/// words `init`, `passwd`, `recover` and `status` use.
enum GuessCost {
  /// `0.52 s`, `3.1 core-hours`, `41 core-years`: seconds of one core in the largest fitting unit.
  static func duration(_ seconds: Double) -> String {
    let units: [(String, Double)] = [
      ("core-years", 365.25 * 86400), ("core-days", 86400), ("core-hours", 3600),
      ("core-minutes", 60),
    ]
    for (name, size) in units where seconds >= size {
      let value = seconds / size
      if value >= 1e6 { return "more than a million \(name)" }
      return (value < 10 ? NumberText.fixed(value, places: 1) : String(Int(value.rounded())))
        + " \(name)"
    }
    return NumberText.fixed(seconds, places: 2) + " s"
  }

  /// One line: what a full search of PINs of `pin`'s length and kind costs at `seconds` a guess.
  ///
  /// A bound is said as one: "the more than 10^15 PINs", "more than a million core-years",
  /// never "about" it.
  static func line(for pin: PIN, seconds: Double) -> String {
    let space = pin.searchSpace
    let count = space >= 1e15 ? "the more than 10^15" : "all \(Int(space))"
    let cost = duration(space * seconds)
    return "A search of \(count) PINs of this length and kind would cost"
      + (cost.hasPrefix("more than ") ? " " : " about ") + cost
      + " to someone holding both the vault and the device state"
      + " (\(NumberText.fixed(seconds, places: 2)) s of one core a guess here)."
  }
}
