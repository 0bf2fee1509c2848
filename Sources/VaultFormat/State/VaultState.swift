import VaultCrypto

extension Vault {
  /// Verifies the newest state under the key and remembers it.
  ///
  /// The state must be the one this device remembers or a descendant of it. Every command that
  /// holds the key runs this first (`UnlockedVault` does).
  ///
  /// A device that remembers no state for this vault (a new device after a recovery, or a lost
  /// device state) trusts the first one it verifies. See "What each command verifies" in
  /// `vault(5)`.
  ///
  /// - Throws: `VaultError.integrity` when the state, the header or the aggregate does not
  ///   verify; `.staleState` when the state is older than, or not a descendant of, the
  ///   remembered one.
  /// - Parameter checkedHeader: true when the key came from a keyslot of the header this `Vault`
  ///   read (a PIN or a recovery code in this command): a header changed since (a PIN change
  ///   while this command waited at its prompt) then fails, as the old PIN must not unlock.
  ///   Otherwise (a session) the header is read again.
  public func verifyState(masterKey: SymmetricKey, checkedHeader: Bool = true) throws {
    let remembered = try device.read().states[vaultID.hex]
    let snapshot = try db.reading {
      let snapshot = try loadChecked(masterKey: masterKey)
      if snapshot.headerBody != headerBody || snapshot.headerMAC != headerMAC {
        guard !checkedHeader else {
          throw VaultError.vaultChanged(.headerChangedWhilePINAsked)
        }
        header = try Header.parse(snapshot.headerBody)
        headerBody = snapshot.headerBody
        headerMAC = snapshot.headerMAC
      }
      if let remembered {
        let seen = StateLink(
          generation: remembered.generation, previous: [], summary: [], mac: remembered.macBytes)
        if snapshot.link.generation != seen.generation
          || !constantTimeEqual(snapshot.link.mac, seen.mac)
        {
          try requireDescendant(of: seen, base: snapshot, masterKey: masterKey)
        }
      }
      return snapshot
    }
    verifiedState = snapshot.link
    if remembered?.generation != snapshot.link.generation {
      try device.update { remember(snapshot.link, in: &$0) }
    }
  }

  /// Runs `body` in one read transaction on the newest state, verified under the key and a
  /// descendant of the one this process verified.
  ///
  /// - Throws: the errors of `StateSnapshot.load` and `.staleState`, and what `body` throws.
  package func reading<R>(masterKey: SymmetricKey, _ body: (StateSnapshot) throws -> R) throws -> R
  {
    try db.reading {
      let snapshot = try loadChecked(masterKey: masterKey)
      if let verified = verifiedState {
        try requireDescendant(of: verified, base: snapshot, masterKey: masterKey)
      }
      return try body(snapshot)
    }
  }

  /// The newest state of the file, verified under the key but whatever this device remembers;
  /// for `vault check --accept-older`.
  ///
  /// - Returns: the generation this device remembered (nil when none) and the file's.
  /// - Throws: `VaultError.integrity` when the state does not verify.
  public func acceptOlderState(masterKey: SymmetricKey) throws -> (
    remembered: Int64?, accepted: Int64
  ) {
    let snapshot = try db.reading {
      try StateSnapshot.load(db, vaultID: vaultID, masterKey: masterKey)
    }
    let remembered = try device.update { state -> Int64? in
      let before = state.states[vaultID.hex]?.generation
      state.states[vaultID.hex] = RememberedState(
        generation: snapshot.link.generation, mac: snapshot.link.mac)
      return before
    }
    verifiedState = snapshot.link
    return (remembered, snapshot.link.generation)
  }

  /// The generation of the state this process verified or wrote last.
  public var stateGeneration: Int64? { verifiedState?.generation }

  /// How many states a writer keeps (`vault(5)`, STATE).
  public static var keptStates: Int64 { StateSnapshot.history }
}
