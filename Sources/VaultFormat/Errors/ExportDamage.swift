/// Which check of its messages a `vault` export (`vault(5)` EXPORT FORMAT) failed.
///
/// Thrown as `VaultError.integrity(.export(…))`; messages are counted from 0.
public enum ExportDamage: Equatable, Sendable {
  /// The file ends inside its header.
  case cutShortInHeader
  /// The file ends before its first message.
  case endsBeforeFirstMessage
  /// The file ends after `messages` messages, none of them tagged final.
  case endsWithoutFinalMessage(messages: Int)
  /// Bytes follow the message tagged final.
  case bytesAfterFinalMessage
  /// The message (its number) has a tag that is neither a message's nor the final one's.
  case unknownTag(message: Int)
  /// The message (its number) is shorter than a piece and not tagged final.
  case shortMessage(Int)
}
