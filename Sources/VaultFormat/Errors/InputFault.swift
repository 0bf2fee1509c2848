/// Why input was refused before anything was stored: which name, value or limit.
///
/// Thrown as `VaultError.invalidInput`; the command line gives the words (`InputWords`).
public enum InputFault: Equatable, Sendable {
}
