#!/usr/bin/env python3
"""Inputs of the profile cases (fixed, deterministic): python3 gen_inputs.py"""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)


# floats 0, 0.25, 0.5, ... (exact in f32 and f64)
write("f32_4k.bin", b"".join(struct.pack("<f", (i % 1024) * 0.25) for i in range(4096)))
write("f64_512.bin", b"".join(struct.pack("<d", i * 0.5) for i in range(512)))
write("i32_512.bin", b"".join(struct.pack("<i", (i * 7919) % 1000 - 500) for i in range(512)))
# starting values of the Collatz loop: 1..64, scrambled
write("collatz_64.bin", b"".join(struct.pack("<I", (i * 37) % 64 + 1) for i in range(64)))
