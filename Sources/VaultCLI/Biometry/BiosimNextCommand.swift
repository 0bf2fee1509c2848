import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim next`.
struct BiosimNextCommand: VaultCommand {
  static let about = CommandAbout(
    "next", "Queue the sensor's next answers, or drop them with --clear.",
    discussion: """
      Answers are taken first in, first out by the prompts that follow, each within \
      \(Int(SensorState.answerValidity)) seconds of being queued; older ones are dropped; \
      standard error says what was queued. fallback answers only a prompt that shows the fallback button (after a failed match: \
      one on Touch ID, two on Face ID and Optic ID).
      """)

  @OptionParameter(Keys.outcomeCount) var outcomeCount
  @FlagParameter(Keys.clearQueue) var clearQueue
  @OptionalArgument(Keys.outcome) var outcome

  func run(_ context: Context) throws -> Int32 {
    if clearQueue {
      guard outcome == nil, outcomeCount == nil else {
        throw UsageError(message: "--clear takes no OUTCOME and no --count", path: ["next"])
      }
      let dropped = try BiosimSupport.controls(context).clearQueue()
      Output.error(
        dropped == 0
          ? "No answer was queued."
          : "Dropped \(dropped) queued answer\(dropped == 1 ? "" : "s").")
      return ExitCode.success.rawValue
    }
    guard let outcome else {
      throw UsageError(message: "say which answer to queue, or --clear", path: ["next"])
    }
    let count = outcomeCount ?? 1
    try BiosimSupport.controls(context).queue(outcome, count: count)
    let seconds = Int(SensorState.answerValidity)
    Output.error(
      count == 1
        ? "Queued \(outcome.rawValue): the next prompt takes it within \(seconds) s."
        : "Queued \(count) answers (\(outcome.rawValue)): the next prompts take them within"
          + " \(seconds) s.")
    return ExitCode.success.rawValue
  }
}
