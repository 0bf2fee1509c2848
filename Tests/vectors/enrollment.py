#!/usr/bin/env python3
"""The test vectors of vault(5) ENROLLMENT, computed without libsodium.

BLAKE2b is hashlib's and Ed25519 is OpenSSL's (through the `cryptography` package); Ed25519
signatures are deterministic (RFC 8032), so the values are the page's exactly. The inputs are the
page's: vault id 16 bytes of 0x02, device id 16 bytes of 0x03, device public key 32 bytes of 0x05,
writer key 32 bytes of 0x04, enrollment serial 2 (for the second enrollment), and the
commitments of the MASTER-KEY ROTATION vector; the revocation is of the device id with that
writer key.
"""
import hashlib

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

VAULT_ID = bytes([2] * 16)
DEVICE_ID = bytes([3] * 16)
DEVICE_PUBLIC_KEY = bytes([5] * 32)
WRITER_KEY = bytes([4] * 32)
PREVIOUS = bytes.fromhex("067641c6b77150a0d391254f4c57e703d1df7d08559135b588a510cffcbce903")
NEXT = bytes.fromhex("7e96063e10b8bf4e24878611dca4c6aea1b3aeaecb4a70d44b9ea0cab9c203ac")
CODE = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ"
NEXT_CODE = b"ZYXWVTSRQPNMKJHGFEDCBA9876543210"


def seed(code: bytes) -> bytes:
    """BLAKE2b-32 keyed with the canonical code, over the label and the vault id."""
    return hashlib.blake2b(
        b"vault.enrollment-seed.v1" + VAULT_ID, key=code, digest_size=32
    ).digest()


def key_pair(code: bytes):
    """The code's enrollment key: the Ed25519 key pair of its seed."""
    private = Ed25519PrivateKey.from_private_bytes(seed(code))
    public = private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    return private, public


private, public = key_pair(CODE)
_, next_public = key_pair(NEXT_CODE)
print("enrollment seed", seed(CODE).hex())
print("enrollment key", public.hex())
print("next enrollment key", next_public.hex())

message = b"vault.enrollment.v1" + VAULT_ID + DEVICE_ID + DEVICE_PUBLIC_KEY + WRITER_KEY
assert len(message) == 115
print("enrollment", private.sign(message).hex())

# Since release 0.11.0: the record's enrollment_serial (here 2), big-endian, after the writer key.
serial = 2
message_v2 = (
    b"vault.enrollment.v2" + VAULT_ID + DEVICE_ID + DEVICE_PUBLIC_KEY + WRITER_KEY
    + serial.to_bytes(8, "big")
)
assert len(message_v2) == 123
print("enrollment v2", private.sign(message_v2).hex())

authorized = (
    b"vault.handoff-authorization.v1"
    + VAULT_ID + PREVIOUS + NEXT + DEVICE_ID + WRITER_KEY + next_public
)
assert len(authorized) == 190
print("authorization", private.sign(authorized).hex())

revoked = b"vault.revocation.v1" + VAULT_ID + DEVICE_ID + WRITER_KEY
assert len(revoked) == 83
print("revocation", private.sign(revoked).hex())
