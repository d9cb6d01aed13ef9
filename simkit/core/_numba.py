"""The one place that sets numba options for the whole project.

``cache=True`` keeps compiled kernels on disk so the CLI does not recompile on every start;
``error_model="numpy"`` lets integer/float division skip the Python zero-division check in
hot loops (our kernels never divide by a value that can be zero).

Compile time is a product feature here (a newcomer's first run compiles every kernel), so the
dispatcher also refuses numba's habit of specialising a compiled callee on the *values* of
constant arguments: a call ``_log(E, EN, turn, phase, v, EV_MOVE, ...)`` from compiled code types
``EV_MOVE`` as ``Literal[int](3)``, and numba compiled one copy of ``_log`` per event code (18 of
them in the Starfire battle kernel alone). :class:`_Dispatcher` first offers the callee the plain
types (``int64``, ``bool``...) and keeps the literal ones only where a function cannot be typed
without them. Nothing in the kernels depends on literal dispatch, so behaviour is unchanged.

numba keys each cached kernel to its own file's timestamp only, so after an edit to a callee in
another file (``procedures/kernels.py`` under ``engine.py``, ``dice.py`` under every game) it loaded the old
compiled kernel from the cache without a word: a test could pass against code that no longer
existed. :class:`_Cache` adds to that key a digest of every source and rules data file of
``simkit.core`` and of the kernel's own game package (games never import each other).
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

# numba's OpenMP threads spin while waiting for work; on a machine with other busy processes
# (a laptop, a shared CI box) two threads then ran 10-50x slower than one. Passive waiting costs
# little on an idle machine. libgomp reads this when the first parallel kernel loads it, so
# setting it here (before any kernel runs) is enough; a user's own setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba  # noqa: E402
from numba.core import config, errors, types  # noqa: E402
from numba.core.caching import FunctionCache  # noqa: E402
from numba.core.cpu import CPUTargetOptions  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402

_OPTIONS = dict(cache=True, error_model="numpy", nogil=True)

# ``_nrt=False`` (compile without numba's reference counting; Demon's Run's hot race functions,
# see docs/design.md) is a private numba option. A numba release without it must cost those
# functions their speed, not make every import of simkit fail on an unknown option.
_DROP_IF_UNKNOWN = ("_nrt",)
_KNOWN_OPTIONS = frozenset(k for k in dir(CPUTargetOptions) if not k.startswith("__"))


# ``wraparound=False`` (Demon's Run's plan search and its two ends helpers): numba gives every
# array index of a signed integer Python's meaning of a negative index, a compare, an add and
# a select per dimension, and the plan search indexes some forty times a node (perf: its
# races 6-8% faster without). A function compiled with it reads index i as i, as C would:
# it must never index with a negative value (what it reads past the end is as unchecked as
# any index past the end, numba's boundscheck being off). Done by the lowering of the index
# itself, asked which function it is building: numba has no option for it. A numba whose
# lowering is not where this expects it compiles such functions with the wraparound.
_NO_WRAP: set = set()        # mangled-name prefixes of the functions compiled without it


def _mangled(fn) -> str:
    """The start of numba's mangled name of ``fn`` (module and qualified name), which the index
    lowering sees as the function it builds; ABI tags ("B") or the end ("E") follow."""
    return "_Z" + mangle_identifier(f"{fn.__module__}.{fn.__qualname__}")[:-1]


try:
    from numba.core.itanium_mangler import mangle_identifier
    from numba.np import arrayobj as _arrayobj
    _wrapping_index = _arrayobj.fix_integer_index

    def _fix_integer_index(context, builder, idxty, idx, size):
        if _NO_WRAP and idxty.signed:
            name = builder.function.name
            for p in _NO_WRAP:
                if name.startswith(p) and name[len(p):len(p) + 1] in ("B", "E"):
                    return context.cast(builder, idx, idxty, types.intp)
        return _wrapping_index(context, builder, idxty, idx, size)

    _arrayobj.fix_integer_index = _fix_integer_index
    CAN_SKIP_WRAPAROUND = True
except (ImportError, AttributeError):
    CAN_SKIP_WRAPAROUND = False


_SIMKIT = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def sources_digest(package: str) -> str:
    """Digest of the ``.py`` and ``data/`` files of ``simkit.core`` and ``simkit.<package>``."""
    h = hashlib.sha256()
    for sub in sorted({"core", package}):
        base = _SIMKIT / sub
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(_SIMKIT)
            if path.is_file() and "__pycache__" not in rel.parts and (
                    path.suffix == ".py" or "data" in rel.parts):
                h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


class _Cache(FunctionCache):
    """numba's on-disk cache, stale whenever simkit code the kernel may call has changed."""

    def __init__(self, py_func):
        super().__init__(py_func)
        parts = (py_func.__module__ or "").split(".")
        if len(parts) > 2 and parts[0] == "simkit":
            f = self._cache_file
            f._source_stamp = (f._source_stamp, sources_digest(parts[1]))


class _Dispatcher(CPUDispatcher):
    """A CPU dispatcher whose calls from compiled code use one specialisation per type."""

    def get_call_template(self, args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != dict(kws):
            try:
                return super().get_call_template(plain, plain_kws)
            except errors.TypingError:
                pass  # this callee needs the constant's value (a literal dispatch): keep it
        return super().get_call_template(args, kws)

    def enable_caching(self):
        self._cache = _Cache(self.py_func)


def _njit(fn, opts):
    for k in _DROP_IF_UNKNOWN:
        if k in opts and k not in _KNOWN_OPTIONS:
            del opts[k]
    if not opts.pop("wraparound", True) and CAN_SKIP_WRAPAROUND and not config.DISABLE_JIT:
        _NO_WRAP.add(_mangled(fn))
    if config.DISABLE_JIT:  # the benchmarks' no-JIT baseline runs the plain Python function
        return numba.njit(**opts)(fn)
    cache = opts.pop("cache", False)
    targetoptions = {"boundscheck": None, **opts, "nopython": True}
    disp = _Dispatcher(py_func=fn, locals={}, targetoptions=targetoptions)
    if cache:
        disp.enable_caching()
    return disp


def jit(fn=None, **overrides):
    """``numba.njit`` with the project options; usable bare or with overrides."""
    opts = {**_OPTIONS, **overrides}
    if fn is None:
        return lambda f: _njit(f, dict(opts))
    return _njit(fn, dict(opts))


def pjit(fn=None, **overrides):
    """A parallel kernel: ``jit`` plus ``parallel=True`` so ``numba.prange`` spreads trials."""
    return jit(fn, parallel=True, **overrides)


prange = numba.prange
