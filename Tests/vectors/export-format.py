#!/usr/bin/env python3
"""The test vector of vault(5) EXPORT FORMAT, computed without libsodium.

Argon2id is OpenSSL's (through the `cryptography` package), BLAKE2b is hashlib's, and
crypto_secretstream_xchacha20poly1305 is put together here from the ChaCha20 and Poly1305 of
OpenSSL as libsodium's documentation and source describe the construction (HChaCha20 is taken
from one ChaCha20 block: the block minus its input words). Prints the values the page lists.

Run: python3 Tests/vectors/export-format.py
"""
import hashlib
import struct

from cryptography.hazmat.primitives import poly1305
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.argon2 import Argon2id

PASSPHRASE = "correct horse battery staple".encode()
SALT = bytes([3] * 16)
STREAM_HEADER = bytes([4] * 24)
OPSLIMIT, MEMLIMIT = 1, 8192  # libsodium's minimum: the `test` profile
PIECE = 65536


def pad(n):
    if n <= 256:
        return 256
    e = n.bit_length() - 1
    s = e.bit_length()
    m = (1 << (e - s)) - 1
    return (n + m) & ~m


def chacha20_block(key, counter, nonce12):
    cipher = Cipher(algorithms.ChaCha20(key, struct.pack("<I", counter) + nonce12), mode=None)
    return cipher.encryptor().update(bytes(64))


def chacha20_xor(key, counter, nonce12, data):
    cipher = Cipher(algorithms.ChaCha20(key, struct.pack("<I", counter) + nonce12), mode=None)
    return cipher.encryptor().update(data)


def hchacha20(key, nonce16):
    cipher = Cipher(algorithms.ChaCha20(key, nonce16), mode=None)
    block = struct.unpack("<16I", cipher.encryptor().update(bytes(64)))
    state = struct.unpack("<4I", b"expand 32-byte k") + struct.unpack("<8I", key) + struct.unpack(
        "<4I", nonce16)
    words = [(block[i] - state[i]) & 0xFFFFFFFF for i in list(range(4)) + list(range(12, 16))]
    return struct.pack("<8I", *words)


class SecretStreamPush:
    def __init__(self, key, header):
        self.key = hchacha20(key, header[:16])
        self.counter = 1
        self.inonce = header[16:24]

    def nonce(self):
        return struct.pack("<I", self.counter) + self.inonce

    def push(self, message, ad, tag):
        block = chacha20_block(self.key, 0, self.nonce())
        mac = poly1305.Poly1305(block[:32])
        mac.update(ad + bytes((16 - len(ad)) % 16))
        first = chacha20_xor(self.key, 1, self.nonce(), bytes([tag]) + bytes(63))
        mac.update(first)
        body = chacha20_xor(self.key, 2, self.nonce(), message)
        mac.update(body + bytes((16 - (64 + len(message))) % 16))
        mac.update(struct.pack("<Q", len(ad)) + struct.pack("<Q", 64 + len(message)))
        tag_bytes = mac.finalize()
        self.inonce = bytes(a ^ b for a, b in zip(self.inonce, tag_bytes[:8]))
        self.counter = (self.counter + 1) & 0xFFFFFFFF
        # A rekey (TAG_REKEY, part of TAG_FINAL) would follow; nothing comes after the final one.
        assert self.counter != 0 and (tag == 3 or not tag & 2)
        return first[:1] + body + tag_bytes


def hexlines(label, data):
    digits = data.hex()
    rows = [digits[i:i + 32] for i in range(0, len(digits), 32)]
    out = []
    for index, row in enumerate(rows):
        out.append(f"{label if index == 0 else '':<16}{row}")
    return "\n".join(out)


key = Argon2id(salt=SALT, length=32, iterations=OPSLIMIT, lanes=1,
               memory_cost=MEMLIMIT // 1024).derive(PASSPHRASE)
head = b"VAULTEXP" + bytes([1]) + struct.pack(">QQ", OPSLIMIT, MEMLIMIT) + SALT
check = hashlib.blake2b(b"vault.export-check.v1" + head, digest_size=16, key=key).digest()
stream_key = hashlib.blake2b(b"vault.export-key.v1", digest_size=32, key=key).digest()
header = head + check + STREAM_HEADER
ad = b"vault.export.v1" + header

name = "mail/work".encode()
content = b"hunter2\nusername: ada\n"
entry = (bytes([1, 0]) + struct.pack(">H", len(name)) + name + b"2026-01-02T03:04:05Z"
         + b"2026-02-03T04:05:06Z" + struct.pack(">Q", len(content)) + content)
text = "Walked to the river.\n".encode()
journal = bytes([2]) + b"2026-02-03T05:05:06+01:00" + struct.pack(">I", len(text)) + text
end = bytes([0]) + struct.pack(">QQ", 1, 1)
records = entry + journal + end
plaintext = records + bytes(pad(len(records)) - len(records))

stream = SecretStreamPush(stream_key, STREAM_HEADER)
pieces = [plaintext[i:i + PIECE] for i in range(0, len(plaintext), PIECE)]
messages = b"".join(
    stream.push(piece, ad, 3 if index == len(pieces) - 1 else 0)
    for index, piece in enumerate(pieces))
export = header + messages

print(hexlines("key", key))
print(hexlines("check", check))
print(hexlines("stream key", stream_key))
print(hexlines("records", records))
print(f"plaintext {len(plaintext)} bytes, file {len(export)} bytes")
print(hexlines("file", export))
