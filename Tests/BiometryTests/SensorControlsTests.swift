import Biometry
import Foundation
import Testing
import VaultCore
import VaultFormat

@Suite struct SensorControlsTests {
  @Test func freshDevice() throws {
    let fixture = try Fixture()
    let sensor = try fixture.sensor()
    var fresh = SensorState()
    fresh.bootID = "boot-1"
    #expect(sensor == fresh)
    #expect(sensor.hardware == "touch-id")
    #expect(sensor.enrollmentGeneration == 1)
    #expect(sensor.osEpoch == 1)
  }

  @Test func enrollWithDefaultLabels() throws {
    let fixture = try Fixture()
    let first = try fixture.controls.enroll(label: nil)
    #expect(first.label == "finger-1")
    #expect(first.enrolledAt == "2026-01-01T00:00:00Z")
    #expect(Data(base64Encoded: first.id)?.count == 16)
    let second = try fixture.controls.enroll(label: nil)
    #expect(second.label == "finger-2")
    #expect(second.id != first.id)
    try fixture.controls.unenroll(label: "finger-1")
    #expect(try fixture.controls.enroll(label: nil).label == "finger-1")
    let sensor = try fixture.sensor()
    #expect(sensor.enrolled.map(\.label) == ["finger-2", "finger-1"])
    #expect(sensor.enrollmentGeneration == 5)

    try fixture.controls.setHardware(.faceID)
    #expect(try fixture.controls.enroll(label: nil).label == "face-1")
    try fixture.controls.setHardware(.opticID)
    #expect(try fixture.controls.enroll(label: nil).label == "iris-1")
  }

  @Test func enrollRefusals() throws {
    let fixture = try Fixture()
    try fixture.controls.enroll(label: "right-index")
    #expect(throws: BiometryControlError.duplicateLabel("right-index")) {
      try fixture.controls.enroll(label: "right-index")
    }
    let long = String(repeating: "x", count: 65)
    for label in ["", " left", "left ", "a\nb", "a\u{1b}b", long] {
      #expect(throws: BiometryControlError.invalidLabel(label)) {
        try fixture.controls.enroll(label: label)
      }
    }
    try fixture.controls.enroll(label: String(repeating: "x", count: 64))
    try fixture.controls.setHardware(.none)
    #expect(throws: BiometryControlError.noHardware) { try fixture.controls.enroll(label: nil) }
    let sensor = try fixture.sensor()
    #expect(sensor.enrolled.isEmpty)
    #expect(sensor.enrollmentGeneration == 4)
  }

  @Test func unenroll() throws {
    let fixture = try Fixture()
    try fixture.controls.enroll(label: "a")
    #expect(throws: BiometryControlError.noSuchTemplate("b")) {
      try fixture.controls.unenroll(label: "b")
    }
    #expect(try fixture.sensor().enrollmentGeneration == 2)
    try fixture.controls.unenroll(label: "a")
    #expect(try fixture.sensor().enrolled.isEmpty)
    #expect(try fixture.sensor().enrollmentGeneration == 3)
  }

  @Test func unenrollAll() throws {
    let fixture = try Fixture()
    try fixture.controls.unenrollAll()
    #expect(try fixture.sensor().enrollmentGeneration == 1)
    try fixture.controls.enroll(label: nil)
    try fixture.controls.enroll(label: nil)
    try fixture.controls.unenrollAll()
    #expect(try fixture.sensor().enrolled.isEmpty)
    #expect(try fixture.sensor().enrollmentGeneration == 4)
  }

  @Test func setHardware() throws {
    let fixture = try Fixture()
    try fixture.controls.setHardware(.faceID)
    #expect(try fixture.sensor().hardware == "face-id")
    #expect(try fixture.sensor().enrollmentGeneration == 1)
    try fixture.controls.enroll(label: nil)
    try fixture.controls.forceLockout()

    try fixture.controls.setHardware(.faceID)
    var sensor = try fixture.sensor()
    #expect(sensor.enrolled.count == 1)
    #expect(sensor.enrollmentGeneration == 2)
    #expect(sensor.lockedOut)

    try fixture.controls.setHardware(.touchID)
    sensor = try fixture.sensor()
    #expect(sensor.hardware == "touch-id")
    #expect(sensor.enrolled.isEmpty)
    #expect(sensor.enrollmentGeneration == 3)
    #expect(sensor.consecutiveFailures == 0)
    #expect(sensor.lockedOut == false)
  }

  @Test func setAvailability() throws {
    let fixture = try Fixture()
    try fixture.controls.enroll(label: nil)
    // A built-in sensor is always connected and paired.
    for availability in [SensorAvailability.disconnected, .notPaired] {
      #expect(throws: BiometryControlError.notExternal(availability)) {
        try fixture.controls.setAvailability(availability)
      }
    }
    #expect(try fixture.sensor().availability == "available")
    try fixture.controls.setHardware(.touchID, external: true)
    for availability in SensorAvailability.allCases.reversed() {
      try fixture.controls.setAvailability(availability)
      #expect(try fixture.sensor().availability == availability.rawValue)
      #expect(try fixture.sensor().sensorAvailability == availability)
    }
    #expect(try fixture.sensor().enrolled.count == 1)
    // Back to a built-in sensor: connected again, enrollment kept (same type).
    try fixture.controls.setAvailability(.notPaired)
    try fixture.controls.setHardware(.touchID)
    #expect(try fixture.sensor().availability == "available")
    #expect(try fixture.sensor().external == false)
    #expect(try fixture.sensor().enrolled.count == 1)
  }

  @Test func queueCountBounds() throws {
    let fixture = try Fixture()
    for count in [0, -1, 101] {
      #expect(throws: BiometryControlError.invalidCount(count)) {
        try fixture.controls.queue(.match, count: count)
      }
    }
    #expect(try fixture.sensor().queue.isEmpty)
    try fixture.controls.queue(.match, count: 1)
    try fixture.controls.queue(.timeout, count: 100)
    let queue = try fixture.sensor().queue
    #expect(queue.count == 101)
    #expect(queue.first == "match")
    #expect(queue.dropFirst().allSatisfy { $0 == "timeout" })
  }

  @Test func lockoutControls() throws {
    let fixture = try Fixture()
    try fixture.controls.forceLockout()
    #expect(try fixture.sensor().consecutiveFailures == 5)
    #expect(try fixture.sensor().lockedOut)
    try fixture.controls.clearLockout()
    #expect(try fixture.sensor().consecutiveFailures == 0)
    #expect(try fixture.sensor().lockedOut == false)
  }

  @Test func osUpgrade() throws {
    let fixture = try Fixture()
    try fixture.controls.enroll(label: nil)
    try fixture.controls.osUpgrade()
    try fixture.controls.osUpgrade()
    let sensor = try fixture.sensor()
    #expect(sensor.osEpoch == 3)
    #expect(sensor.enrollmentGeneration == 2)
  }

  @Test func reset() throws {
    let fixture = try Fixture()
    try fixture.controls.setHardware(.faceID)
    try fixture.controls.enroll(label: nil)
    try fixture.controls.queue(.match, count: 2)
    try fixture.controls.osUpgrade()
    try fixture.store.update { $0.pinAttempts["00ff"] = PINAttempts() }
    let before = try fixture.store.read()
    #expect(before.pinAttempts.count == 1)

    try fixture.controls.reset()
    let after = try fixture.store.read()
    #expect(after.deviceSecret != before.deviceSecret)
    #expect(after.deviceSecret.bytes.count == 32)
    #expect(try after.sensorState() == SensorState())
    #expect(after.pinAttempts.isEmpty)
  }
}
