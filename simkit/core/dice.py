"""Per-trial random streams and the one dice source every kernel draws from.

Reproducibility (DESIGN.md, "Per-trial random streams"): trial *i* of a run with seed *s* draws
from a xoroshiro128++ generator (Blackman & Vigna, 2019) whose 128-bit state is derived only
from (*s*, *i*) by SplitMix64 mixing. No state is shared between trials, so a run gives the same
numbers on 1 thread, 2 threads, any chunk size, or a cluster.

Scripted dice (DESIGN.md, "Scripted dice"): the same compiled kernels can replay a list of
rolls. A *roll* is one call to :func:`roll` (``n`` dice of ``sides`` summed), and a script holds
one entry per roll -- exactly how the rulebooks narrate their examples ("rolls a 5 and an 11").
Running out of script, or scripting a value the dice cannot show, raises
:class:`~simkit.core.errors.ScriptedDiceError`.

The source is a small ``uint64`` array ``st`` (columns named below) plus an ``int64`` script
array, both passed explicitly: never numba's global ``np.random`` state.
"""

from __future__ import annotations

import numpy as np

from ._numba import jit
from .errors import ScriptedDiceError

# --- columns of the dice-state array ---------------------------------------------------------
S0, S1, BUF, NBUF, MODE, POS, NROLLS = range(7)
STATE_SIZE = 8

MODE_RANDOM = 0
MODE_SCRIPTED = 1
MODE_RECORD = 2  # random rolls, each also written to the script array (for game logs)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U2 = np.uint64(2)


@jit(inline="always")
def _mix64(z):
    """SplitMix64's finaliser: a bijective avalanche of 64 bits."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@jit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


def stream_key(seed: int) -> np.uint64:
    """Normalise a user seed (any int >= 0) to the 64-bit key of a run."""
    if isinstance(seed, (bool, np.bool_)) or int(seed) != seed or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return np.uint64(_mix64_py(int(seed) & 0xFFFFFFFFFFFFFFFF ^ 0x5EED5EED5EED5EED))


def _mix64_py(z: int) -> int:
    mask = 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def new_state() -> np.ndarray:
    """A fresh dice-state array (random mode until seeded or scripted)."""
    return np.zeros(STATE_SIZE, dtype=np.uint64)


NO_SCRIPT = np.zeros(0, dtype=np.int64)


@jit
def seed_trial(st, key, trial):
    """Point ``st`` at the stream of ``trial`` in the run with key ``key`` (random mode)."""
    x = _mix64(key ^ _mix64(np.uint64(trial) + _GOLDEN))
    s0 = _mix64(x + _GOLDEN)
    s1 = _mix64(x + _GOLDEN + _GOLDEN)
    if s0 == _U0 and s1 == _U0:  # the one forbidden xoroshiro state
        s0 = _U1
    st[S0] = s0
    st[S1] = s1
    st[BUF] = _U0
    st[NBUF] = _U0
    st[MODE] = MODE_RANDOM
    st[NROLLS] = _U0


@jit
def set_scripted(st):
    """Switch ``st`` to replay the script passed to later rolls, from its first entry."""
    st[MODE] = MODE_SCRIPTED
    st[POS] = _U0
    st[NROLLS] = _U0


@jit(inline="always")
def next_u64(st):
    """xoroshiro128++ step."""
    s0 = st[S0]
    s1 = st[S1]
    result = _rotl(s0 + s1, 17) + s0
    s1 ^= s0
    st[S0] = _rotl(s0, 49) ^ s1 ^ (s1 << np.uint64(21))
    st[S1] = _rotl(s1, 28)
    return result


@jit(inline="always")
def _next_u32(st):
    # Two 32-bit draws per 64-bit output: one output feeds a whole 2d6 roll.
    if st[NBUF] == _U0:
        st[BUF] = next_u64(st)
        st[NBUF] = _U2
    u = st[BUF] & _LOW32
    st[BUF] = st[BUF] >> np.uint64(32)
    st[NBUF] -= _U1
    return u


@jit(inline="always")
def _uniform_die(st, sides):
    """Exactly uniform 1..sides by Lemire's multiply-and-reject on 32-bit draws."""
    s = np.uint64(sides)
    m = _next_u32(st) * s
    low = m & _LOW32
    if low < s:
        threshold = (_TWO32 - s) % s
        while low < threshold:
            m = _next_u32(st) * s
            low = m & _LOW32
    return np.int64(m >> np.uint64(32)) + 1


@jit
def _script_error(st, script, n, sides):
    pos = np.int64(st[POS])
    if pos >= script.shape[0]:
        raise ScriptedDiceError("scripted dice ran out of rolls")
    raise ScriptedDiceError("scripted roll is outside the range the dice can show")


@jit
def roll(st, script, n, sides):
    """Roll ``n`` dice of ``sides`` faces and return the sum (one script entry when scripted).

    Not ``inline="always"``: numba's IR inlining copies and re-types the body at every call
    site, which multiplied cold compile time; LLVM inlines it where it pays."""
    st[NROLLS] += _U1
    if st[MODE] == MODE_SCRIPTED:
        pos = np.int64(st[POS])
        if pos >= script.shape[0]:
            _script_error(st, script, n, sides)
        v = script[pos]
        if v < n or v > n * sides:
            _script_error(st, script, n, sides)
        st[POS] = np.uint64(pos + 1)
        return v
    total = np.int64(0)
    for _ in range(n):
        total += _uniform_die(st, sides)
    if st[MODE] == MODE_RECORD:
        pos = np.int64(st[POS])
        if pos < script.shape[0]:
            script[pos] = total
        st[POS] = np.uint64(pos + 1)
    return total


@jit
def d6(st, script):
    return roll(st, script, 1, 6)


@jit
def two_d6(st, script):
    return roll(st, script, 2, 6)


@jit
def set_recording(st):
    """Keep drawing random rolls but also write each one into the script array, in order."""
    st[MODE] = MODE_RECORD
    st[POS] = _U0


@jit
def script_position(st):
    return np.int64(st[POS])


def scripted_state() -> np.ndarray:
    st = new_state()
    set_scripted(st)
    return st


def as_script(rolls) -> np.ndarray:
    """A script array from a list of roll results."""
    arr = np.asarray(list(rolls), dtype=np.int64)
    return arr if arr.ndim == 1 else arr.ravel()
