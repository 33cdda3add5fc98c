#!/usr/bin/env python3
"""Derives the constants of the vector double log (lib/nbk/core/host_log.hpp, log_detail, its
AVX-512 and AVX2 forms): the 16-entry tables 1/c, log c (high part a multiple of 2^-33, and the
remainder) and the degree-7 polynomial Q with log1p(r) = r + r^2 Q(r), printed with the range
of r and Q's relative error; then the integer reduction's constants (bias, normal_limit, the
exponent's offset) and AVX2's half-entries, each checked against the plain reduction on sample
bit patterns. Needs mpmath (Debian: python3-mpmath).

  scripts/host_log_table.py
"""
import mpmath as mp

mp.mp.dps = 50
ENTRIES, CENTRE_OF_ONE = 16, 9


def centre(i):
    """Entry i's centre: 1 + (i - 9)/16 at or above 1, 0.5 + (7 + i)/32 below (the binade of 1/2)."""
    if i >= CENTRE_OF_ONE:
        return 1 + mp.mpf(i - CENTRE_OF_ONE) / 16
    return mp.mpf(0.5) + mp.mpf(7 + i) / 32


def bounds(i):
    """The values of m that entry i takes: 2^48 bit patterns from 0.703125 + i 2^48 on."""
    if i == CENTRE_OF_ONE:
        return 1 - mp.mpf(1) / 64, 1 + mp.mpf(1) / 32
    half = mp.mpf(1) / (32 if i > CENTRE_OF_ONE else 64)
    return centre(i) - half, centre(i) + half


def tables():
    inv_c, log_c_high, log_c_low = [], [], []
    r_min = r_max = mp.mpf(0)
    for i in range(ENTRIES):
        inv = 1.0 if i == CENTRE_OF_ONE else float(1 / centre(i))
        log_c = -mp.log(mp.mpf(inv))
        high = mp.nint(log_c * 2**33) / 2**33
        inv_c.append(inv)
        log_c_high.append(float(high))
        log_c_low.append(float(log_c - high))
        lo, hi = bounds(i)
        r_min, r_max = min(r_min, lo * inv - 1), max(r_max, hi * inv - 1)
    return inv_c, log_c_high, log_c_low, r_min, r_max


def q_of(r):
    return mp.mpf(-0.5) if r == 0 else (mp.log1p(r) - r) / r**2


def polynomial(r_min, r_max, degree=7, samples=4000):
    coefficients = [float(c) for c in mp.chebyfit(q_of, [r_min, r_max], degree + 1)[::-1]]
    worst = mp.mpf(0)
    for k in range(samples + 1):
        r = r_min + (r_max - r_min) * k / samples
        value = sum(mp.mpf(c) * r**j for j, c in enumerate(coefficients))
        worst = max(worst, abs(value / q_of(r) - 1))
    return coefficients, worst


RANGE_START = 0x3FE6800000000000  # bits of 0.703125, where entry 0 starts


def reduction():
    """t = bits(x) + bias: t >> 52 = k + offset, t's bits 48-51 the entry, t mod 2^52 + the range's
    start m's bits, and signed t < normal_limit exactly for x in [1.40625 2^-1022, inf)."""
    low = RANGE_START % 2**52
    bias = 2**63 - 2**52 - low
    limit = (0x7FF0000000000000 - 2**52 - low) - 2**63  # signed
    offset = (RANGE_START >> 52) + 2047
    signed = lambda v: v - 2**64 if v >= 2**63 else v
    for u in list(range(0x0010000000000000, 0x7FF0000000000000, 0x0000A3D70A3D70A3)) + [
            0, 1, 2**52 + low - 1, 2**52 + low, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000, 2**63, 2**64 - 1]:
        t = (u + bias) % 2**64
        normal = 2**52 + low <= u < 0x7FF0000000000000
        assert (signed(t) < limit) == normal, hex(u)
        if normal:
            k = (u - RANGE_START) >> 52  # Python's >> is arithmetic
            assert (t >> 52) - offset == k and (t >> 48) % 16 == ((u - RANGE_START) >> 48) % 16
            assert t % 2**52 + RANGE_START == u - k * 2**52
            # AVX2's half-entries: t's entry from x's bits 47-51 alone.
            assert (t >> 48) % 16 == ((u >> 47) % 32 + 1) // 2 + (bias >> 48) % 16 & 15
    return bias, limit % 2**64, offset


def main():
    inv_c, log_c_high, log_c_low, r_min, r_max = tables()
    q, error = polynomial(r_min, r_max)
    print(f"r in [{float(r_min):.6f}, {float(r_max):.6f}]; Q's relative error 2^{float(mp.log(error, 2)):.1f}")
    for name, values in (("inv_c", inv_c), ("log_c_high", log_c_high), ("log_c_low", log_c_low), ("q", q)):
        print(f"{name} = {{{', '.join(v.hex() for v in values)}}}")
    bias, limit, offset = reduction()
    print(f"range_start_bits = {RANGE_START:#018x}, bias = {bias:#018x}, normal_limit = {limit:#018x}, "
          f"exponent_offset = 0x1p52 + {offset}")
    print(f"half-entry h (x's bits 47-51) -> entry (h + 1) / 2 + {(bias >> 48) % 16} mod 16")


if __name__ == "__main__":
    main()
