"""nr.fuse: one Ascend C kernel launch for a Python function of elementwise
operations (npurt's cupy.fuse).

    @nr.fuse
    def axpy(a, x, y):
        return a * x + y              # one `fused_elementwise` launch: reads x, y once, writes once

    @nr.fuse()
    def gelu(x):
        return 0.5 * x * (1 + nr.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))

The first call with a new (dtypes, ndims, scalar kinds) signature traces the
function on placeholders (_fuse_trace.py), lowers the trace to a program
(_fuse_lower.py) and caches it; every later call patches in the scalar
arguments and runs the public op ``fused_elementwise`` (kernels/fused/), which
C++ callers reach the same way. Results: dtype and shape exactly as the
unfused expression; values computed in float32 (16-bit inputs widened), so
float16 results may differ from the op-by-op expression by float16 rounding.

Runs unfused (each operation its own kernel; ``f.explain(*args)`` says why):
inputs that are not float16/bfloat16/float32 arrays, a bool result, more than
4 array inputs, more than 12 live temporaries or 96 instructions.
Raises TypeError naming the operation for anything that is not elementwise
(reductions, indexing, ``bool(x)``, // % & | ...); shape mismatches raise the
unfused expression's own ValueError.
"""
import builtins
import functools
import threading

from . import _npurt
from . import _fuse_lower, _fuse_trace

__all__ = ["fuse"]

_FLOATS = ("float16", "bfloat16", "float32")
_SCALARS = {builtins.bool: "bool", int: "int", float: "float"}
_trace_lock = threading.RLock()


def fuse(fn=None, *, kernel_name=None):
    """Decorator: ``@nr.fuse`` or ``@nr.fuse()``; ``kernel_name`` is accepted for cupy compatibility."""
    if fn is None:
        return lambda f: Fused(f)
    return Fused(fn)


class _Program:
    __slots__ = ("words", "patches", "inputs", "dtype", "reason")

    def __init__(self, words=None, patches=(), inputs=(), dtype=None, reason=None):
        self.words, self.patches, self.inputs, self.dtype, self.reason = words, patches, inputs, dtype, reason


class Fused:
    """A fused function: call it like the original; the program cache is per signature."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._cache = {}
        self._op = None

    def __call__(self, *args, **kwargs):
        try:  # zero-cost on success; an error names the fused function (below)
            if kwargs:
                raise TypeError(f"{self._where()}: keyword arguments are not supported; pass them positionally")
            prog = self._program(args)
            if prog.words is None:
                return self._fn(*args)
            words = prog.words
            if prog.patches:
                words = list(words)
                for pos, j, dt in prog.patches:
                    words[pos] = _fuse_lower.float_bits(args[j], dt)
            if self._op is None:
                from . import ops
                self._op = ops.get("fused_elementwise")
            try:
                return self._op(*[args[i] for i in prog.inputs], program=words, dtype=prog.dtype)
            except ValueError:
                self._fn(*args)  # the unfused expression raises its own error (shape mismatch ...)
                raise
        except (TypeError, ValueError, IndexError, MemoryError, RuntimeError, NotImplementedError) as e:
            # The unfused expression's own message, prefixed with the fused function the user called
            # (an error inside an unfused fallback otherwise names only the inner op, or nothing).
            where = self._where()
            if not str(e).startswith(where):
                e.args = (f"{where}: {e}",) + tuple(e.args[1:])
            raise

    def _where(self):
        return f"npurt.fuse({getattr(self, '__name__', type(self._fn).__name__)})"

    def __get__(self, obj, objtype=None):  # a fused method binds like a function
        return self if obj is None else functools.partial(self, obj)

    def explain(self, *args):
        """'fused: ...' with the program size, or 'unfused: <reason>' for these arguments."""
        p = self._program(args)
        if p.words is None:
            return f"unfused: {p.reason}"
        return (f"fused: {len(p.inputs)} inputs, {p.words[4]} instructions, {p.words[2]} registers, "
                f"output {p.dtype.name}")

    def program(self, *args):
        """The `program` attribute passed to nr.ops.fused_elementwise for these arguments (None if unfused)."""
        p = self._program(args)
        return None if p.words is None else list(p.words)

    def _program(self, args):
        key = tuple((a.dtype, a.ndim) if isinstance(a, _npurt.ndarray) else _SCALARS.get(type(a), type(a))
                    for a in args)
        prog = self._cache.get(key)
        if prog is None:
            prog = self._trace(args)
            self._cache[key] = prog
        return prog

    def _trace(self, args):
        where = self._where()
        arrays = [a for a in args if isinstance(a, _npurt.ndarray)]
        for a in args:
            if not isinstance(a, _npurt.ndarray) and type(a) not in _SCALARS:
                return _Program(reason=f"argument of type {type(a).__name__}")
        if not arrays:
            return _Program(reason="no array argument")
        bad = [a.dtype.name for a in arrays if a.dtype.name not in _FLOATS]
        if bad:
            return _Program(reason=f"{bad[0]} inputs (the fused kernel computes float16, bfloat16, float32)")
        g = _fuse_trace.Graph(where, [a.ndim if isinstance(a, _npurt.ndarray) else 0 for a in args],
                              arrays[0].device)
        holders = [g.input(i, a.dtype) if isinstance(a, _npurt.ndarray) else g.param(i, _SCALARS[type(a)])
                   for i, a in enumerate(args)]
        with _trace_lock, _Patched(self._fn):
            try:
                out = self._fn(*holders)
            except _fuse_trace.FuseError:
                raise
            except TypeError as e:
                raise TypeError(f"{where}: unsupported operation inside the fused function: {e}") from None
        if isinstance(out, (tuple, list)):
            raise TypeError(f"{where}: returns a {type(out).__name__}; nr.fuse fuses functions of one result")
        if not isinstance(out, _fuse_trace.Node) or not out.is_array:
            raise TypeError(f"{where}: returns {type(out).__name__}, not an array expression of its inputs")
        if out.dtype.name not in _FLOATS:
            return _Program(reason=f"a {out.dtype.name} result (the fused kernel writes float results)")
        try:
            words, patches, order = _fuse_lower.lower(g, out)
        except _fuse_lower.TooLarge as e:
            return _Program(reason=str(e))
        return _Program(words, tuple(patches), tuple(i for i in order), out.dtype)


def _traced(name, orig):
    """npurt.<name> while tracing: builds a node when given placeholders, else the original."""
    def f(*args, **kwargs):
        if not any(isinstance(a, _fuse_trace.Node) for a in args):
            return orig(*args, **kwargs)
        g = next(a.graph for a in args if isinstance(a, _fuse_trace.Node))
        return _RULES[name](g, *args, **kwargs)
    f.__name__ = f.__qualname__ = name
    return f


def _clip(g, x, min=None, max=None):  # noqa: A002  (the standard's names)
    y = x if min is None else g.binary("max", x, min)
    y = y if max is None else g.binary("min", y, max)
    return y if y is not x else g.unary("copy", x)


_RULES = {
    "exp": lambda g, x: g.unary("exp", x), "log": lambda g, x: g.unary("ln", x),
    "sqrt": lambda g, x: g.unary("sqrt", x), "abs": lambda g, x: g.unary("abs", x),
    "sin": lambda g, x: g.unary("sin", x), "cos": lambda g, x: g.unary("cos", x),
    "tanh": lambda g, x: g.unary("tanh", x), "negative": lambda g, x: g.unary("neg", x),
    "positive": lambda g, x: g.unary("copy", x), "square": lambda g, x: g.power(g.const(x), 2),
    "add": lambda g, a, b: g.binary("add", a, b), "subtract": lambda g, a, b: g.binary("sub", a, b),
    "multiply": lambda g, a, b: g.binary("mul", a, b), "divide": lambda g, a, b: g.binary("div", a, b),
    "maximum": lambda g, a, b: g.binary("max", a, b), "minimum": lambda g, a, b: g.binary("min", a, b),
    "pow": lambda g, a, b: g.power(g.const(a), b),
    "less": lambda g, a, b: g.compare("lt", a, b), "less_equal": lambda g, a, b: g.compare("le", a, b),
    "greater": lambda g, a, b: g.compare("gt", a, b), "greater_equal": lambda g, a, b: g.compare("ge", a, b),
    "equal": lambda g, a, b: g.compare("eq", a, b), "not_equal": lambda g, a, b: g.compare("ne", a, b),
    "where": lambda g, c, a, b: g.where(c, a, b), "clip": _clip,
    "astype": lambda g, x, dtype, copy=True, device=None: g.astype(x, dtype),
}


class _Patched:
    """While tracing, npurt.<f> (in npurt, npurt.array_api and the function's
    globals, wherever it is the original) builds nodes for placeholders."""

    def __init__(self, fn):
        import npurt
        from . import array_api
        self._targets = [vars(npurt), vars(array_api), getattr(fn, "__globals__", {})]
        self._orig = {n: getattr(npurt, n) for n in _RULES if hasattr(npurt, n)}
        self._saved = []

    def __enter__(self):
        rule_of = {id(f): n for n, f in self._orig.items()}
        for ns in self._targets:
            for k, v in list(ns.items()):
                n = rule_of.get(id(v))
                if n is not None and v is self._orig[n]:
                    self._saved.append((ns, k, v))
                    ns[k] = _traced(n, v)
        return self

    def __exit__(self, *exc):
        for ns, n, orig in reversed(self._saved):
            ns[n] = orig
        self._saved.clear()
        return False

