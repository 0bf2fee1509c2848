/// What one stored parameter of a command type declares: an option or a positional argument,
/// or a group of them.
enum ParameterDeclaration {
  /// An option or a flag.
  case option(OptionSpec)
  /// A positional argument.
  case argument(ArgumentSpec)
}

/// A stored parameter of a command type (`VaultCommand`): it declares its table entry and
/// takes its value from a parsed command line.
///
/// The value lives in a shared slot, so a parameter found by reflection (`Mirror`, which
/// hands out copies) fills the command it belongs to.
protocol DeclaredParameter {
  /// The table entries it declares, in order.
  var declarations: [ParameterDeclaration] { get }
  /// Reads its value from `invocation`.
  ///
  /// - Throws: the parse errors of its type (`ValueError`), `UsageError` for a missing
  ///   required argument (both found by the parser first).
  func fill(from invocation: Invocation) throws
}

/// The slot a parameter's value is kept in.
final class ParameterSlot<Value> {
  var value: Value

  init(_ value: Value) { self.value = value }
}

/// A flag of the command: true when it was given.
@propertyWrapper
struct FlagParameter: DeclaredParameter {
  let key: Flag
  private let slot = ParameterSlot(false)

  /// Declares `key`.
  init(_ key: Flag) { self.key = key }

  var wrappedValue: Bool { slot.value }
  var declarations: [ParameterDeclaration] { [.option(key.spec)] }
  func fill(from invocation: Invocation) throws { slot.value = invocation.flag(key) }
}

/// An option of the command with a value: the last one given, nil when it was not.
@propertyWrapper
struct OptionParameter<Value: Sendable>: DeclaredParameter {
  let key: Option<Value>
  private let slot = ParameterSlot<Value?>(nil)

  /// Declares `key`.
  init(_ key: Option<Value>) { self.key = key }

  var wrappedValue: Value? { slot.value }
  var declarations: [ParameterDeclaration] { [.option(key.spec)] }
  func fill(from invocation: Invocation) throws { slot.value = try invocation.value(key) }
}

/// An option of the command that may be given more than once: every value, in order.
@propertyWrapper
struct RepeatedOption<Value: Sendable>: DeclaredParameter {
  let key: Option<Value>
  private let slot = ParameterSlot<[Value]>([])

  /// Declares `key`.
  init(_ key: Option<Value>) { self.key = key }

  var wrappedValue: [Value] { slot.value }
  var declarations: [ParameterDeclaration] { [.option(key.spec)] }
  func fill(from invocation: Invocation) throws { slot.value = try invocation.values(key) }
}

/// A required positional argument of the command.
@propertyWrapper
struct ArgumentParameter<Value: ArgumentValue>: DeclaredParameter {
  let key: Argument<Value>
  private let slot = ParameterSlot<Value?>(nil)

  /// Declares `key`, which must not be optional or variadic.
  init(_ key: Argument<Value>) {
    precondition(!key.spec.optional && !key.spec.variadic, "\(key.spec.name) is not required")
    self.key = key
  }

  /// The argument; read only in `run`, after the parser made sure it was given.
  var wrappedValue: Value {
    guard let value = slot.value else { preconditionFailure("\(key.spec.name) was not filled") }
    return value
  }
  var declarations: [ParameterDeclaration] { [.argument(key.spec)] }
  func fill(from invocation: Invocation) throws { slot.value = try invocation.argument(key) }
}

/// An optional positional argument of the command: nil when it was left out.
@propertyWrapper
struct OptionalArgument<Value: ArgumentValue>: DeclaredParameter {
  let key: Argument<Value>
  private let slot = ParameterSlot<Value?>(nil)

  /// Declares `key`, which must be optional.
  init(_ key: Argument<Value>) {
    precondition(key.spec.optional && !key.spec.variadic, "\(key.spec.name) is not optional")
    self.key = key
  }

  var wrappedValue: Value? { slot.value }
  var declarations: [ParameterDeclaration] { [.argument(key.spec)] }
  func fill(from invocation: Invocation) throws {
    slot.value = try invocation.argumentIfGiven(key)
  }
}

/// A variadic positional argument of the command: every word it took, in order.
@propertyWrapper
struct VariadicArgument<Value: ArgumentValue>: DeclaredParameter {
  let key: Argument<Value>
  private let slot = ParameterSlot<[Value]>([])

  /// Declares `key`, which must be variadic.
  init(_ key: Argument<Value>) {
    precondition(key.spec.variadic, "\(key.spec.name) is not variadic")
    self.key = key
  }

  var wrappedValue: [Value] { slot.value }
  var declarations: [ParameterDeclaration] { [.argument(key.spec)] }
  func fill(from invocation: Invocation) throws { slot.value = try invocation.arguments(key) }
}

/// Options that several commands declare together (the clipboard's, a selection of an entry's
/// text): a type of their own whose stored parameters are declared where it is used.
protocol ParameterGroup {
  /// An unfilled group.
  init()
}

/// A group of options (`ParameterGroup`) declared by the command, in the group's order.
@propertyWrapper
struct GroupParameter<Group: ParameterGroup>: DeclaredParameter {
  let wrappedValue: Group

  /// Declares every parameter of `Group`.
  init() { wrappedValue = Group() }

  var declarations: [ParameterDeclaration] {
    CommandParameters.of(wrappedValue).flatMap(\.declarations)
  }
  func fill(from invocation: Invocation) throws {
    for parameter in CommandParameters.of(wrappedValue) { try parameter.fill(from: invocation) }
  }
}

/// The stored parameters of a command or a group, found by reflection in declaration order.
enum CommandParameters {
  /// Every `DeclaredParameter` stored in `value`, in declaration order.
  static func of(_ value: Any) -> [any DeclaredParameter] {
    Mirror(reflecting: value).children.compactMap { $0.value as? any DeclaredParameter }
  }
}
