import VaultFormat

/// The table entry of `otp`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let otp = CommandSpec(
    "otp", "Print the current one-time code (TOTP or HOTP) of an entry.",
    discussion: """
      The code comes from the otpauth:// URI in the entry's otp field, else from its first line \
      that is such a URI, honouring its algorithm (SHA1, SHA256, SHA512), digits (6 to 8), \
      period and, for HOTP, counter; liboath (RFC 6238, RFC 4226) makes it. On a pipe it is \
      written without a newline. An HOTP code advances the entry's counter in the same \
      transaction, so two commands never print the same code; no history revision is made. \
      With --set, stores the otp field instead: a URI is checked and kept as given, a bare \
      base32 secret becomes otpauth://totp/NAME?secret=SECRET (30 s, 6 digits, SHA1); read \
      from a hidden prompt, or from standard input (one trailing newline dropped).
      """,
    options: [Keys.otpSet.spec, Keys.json.spec] + clipOptions, arguments: [Keys.name.spec],
    run: runs(OneTimeCodeCommandRun.run))
}
