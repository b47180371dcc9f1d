"""Tracing for nr.fuse: runs the user's function once on placeholder values
and records an SSA graph of elementwise operations (``Graph``), with the
result dtype of every node following the same promotion rules as the unfused
expression (array API table; Python scalars take the array's dtype).

Nodes (``Node.op``): "input" (array argument i), "param" (scalar argument j,
a run-time value), "const" (a Python number of the function), "dup" (a
constant broadcast into a register), binary ("add" "sub" "mul" "div" "max"
"min"), unary ("exp" "ln" "sqrt" "abs" "neg" "tanh" "sin" "cos" "copy"),
"cmp" (mode in ``Node.arg``), "select" and "round" (astype to a 16-bit float).
Every node also records ``deps``: the array inputs its shape broadcasts from,
so ``x ** 0`` still has x's shape. Anything else raises TypeError naming it.
"""
from . import _npurt
from .array_api import _dtypes

_FLOAT_NAMES = ("float16", "bfloat16", "float32")
CMP_MODES = {"lt": 0, "gt": 1, "eq": 2, "le": 3, "ge": 4, "ne": 5}
_SWAP = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "eq", "ne": "ne"}


class FuseError(TypeError):
    """An operation nr.fuse cannot put in a fused kernel (a TypeError naming it)."""


def unsupported(what):
    return FuseError(f"nr.fuse: {what} is not supported inside a fused function "
                     "(supported: + - * / ** (number exponents), unary -, comparisons, exp log sqrt abs sin cos "
                     "tanh maximum minimum where clip astype)")


class Node:
    __slots__ = ("op", "args", "arg", "dtype", "deps", "index", "graph")
    __hash__ = object.__hash__
    __array_priority__ = 1000

    def __init__(self, graph, op, args=(), arg=None, dtype=None, deps=frozenset()):
        self.graph, self.op, self.args, self.arg, self.dtype, self.deps = graph, op, tuple(args), arg, dtype, deps
        self.index = len(graph.nodes)
        graph.nodes.append(self)

    # ---- what the traced function sees --------------------------------------------------
    @property
    def is_array(self):
        return self.dtype is not None

    @property
    def ndim(self):
        return self.graph.ndims[self.arg] if self.op == "input" else _raise(unsupported("x.ndim of an intermediate"))

    shape = property(lambda self: _raise(unsupported("x.shape (fused programs are shape-independent)")))
    size = shape
    device = property(lambda self: self.graph.device)

    def __bool__(self):
        raise unsupported("bool(x) (data-dependent control flow)")

    def __getitem__(self, key):
        raise unsupported("indexing x[...]")

    def __iter__(self):
        raise unsupported("iterating over x")

    def astype(self, dtype, /, *, copy=True, device=None):
        return self.graph.astype(self, dtype)

    def __add__(self, o): return self.graph.binary("add", self, o)
    def __radd__(self, o): return self.graph.binary("add", o, self)
    def __sub__(self, o): return self.graph.binary("sub", self, o)
    def __rsub__(self, o): return self.graph.binary("sub", o, self)
    def __mul__(self, o): return self.graph.binary("mul", self, o)
    def __rmul__(self, o): return self.graph.binary("mul", o, self)
    def __truediv__(self, o): return self.graph.binary("div", self, o)
    def __rtruediv__(self, o): return self.graph.binary("div", o, self)
    def __pow__(self, o): return self.graph.power(self, o)
    def __rpow__(self, o): raise unsupported("a number ** an array")
    def __neg__(self): return self.graph.unary("neg", self)
    def __pos__(self): return self.graph.unary("copy", self)
    def __abs__(self): return self.graph.unary("abs", self)
    def __lt__(self, o): return self.graph.compare("lt", self, o)
    def __le__(self, o): return self.graph.compare("le", self, o)
    def __gt__(self, o): return self.graph.compare("gt", self, o)
    def __ge__(self, o): return self.graph.compare("ge", self, o)
    def __eq__(self, o): return self.graph.compare("eq", self, o)
    def __ne__(self, o): return self.graph.compare("ne", self, o)


def _raise(e):
    raise e


def _unsupported_operator(sym):
    def f(self, *args):
        raise unsupported(f"operator {sym}")
    return f


for _name, _sym in [("__floordiv__", "//"), ("__rfloordiv__", "//"), ("__mod__", "%"), ("__rmod__", "%"),
                    ("__and__", "&"), ("__rand__", "&"), ("__or__", "|"), ("__ror__", "|"), ("__xor__", "^"),
                    ("__rxor__", "^"), ("__invert__", "~"), ("__matmul__", "@"), ("__rmatmul__", "@"),
                    ("__lshift__", "<<"), ("__rshift__", ">>"), ("__iadd__", "+="), ("__isub__", "-="),
                    ("__imul__", "*="), ("__itruediv__", "/=")]:
    setattr(Node, _name, _unsupported_operator(_sym))


class Graph:
    """The SSA graph of one trace. ``name`` names the fused function in errors."""

    def __init__(self, name, ndims, device):
        self.name, self.ndims, self.device = name, ndims, device
        self.nodes = []
        self._consts = {}

    # ---- leaves --------------------------------------------------------------------------
    def input(self, i, dtype):
        return Node(self, "input", arg=i, dtype=dtype, deps=frozenset([i]))

    def param(self, j, kind):
        return Node(self, "param", arg=(j, kind))

    def const(self, v):
        if isinstance(v, Node):
            return v
        if isinstance(v, complex) or not isinstance(v, (bool, int, float)):
            raise unsupported(f"an operand of type {type(v).__name__}")
        return Node(self, "const", arg=float(v))

    # ---- dtypes ---------------------------------------------------------------------------
    def _result_dtype(self, a, b, name):
        if a.is_array and b.is_array:
            return _dtypes.promote(a.dtype, b.dtype, f"npurt.{name}")
        arr, s = (a, b) if a.is_array else (b, a)
        if not arr.is_array:
            return None
        sample = s.arg if s.op == "const" else {"bool": False, "int": 0, "float": 0.0}[s.arg[1]]
        return _dtypes.scalar_result(arr.dtype, sample, f"npurt.{name}")

    def _float(self, dt, name):
        if dt is not None and dt.name not in _FLOAT_NAMES:
            raise unsupported(f"npurt.{name} on {dt.name} values (nr.fuse computes float16/bfloat16/float32)")
        return dt

    # ---- operations -----------------------------------------------------------------------
    def binary(self, op, a, b):
        a, b = self.const(a), self.const(b)
        if not (a.is_array or b.is_array) and a.op == "const" and b.op == "const":
            raise unsupported("arithmetic on two Python numbers inside the trace")
        names = {"add": "add", "sub": "subtract", "mul": "multiply", "div": "divide", "max": "maximum",
                 "min": "minimum"}
        dt = self._float(self._result_dtype(a, b, names[op]), names[op])
        return Node(self, op, (a, b), dtype=dt, deps=a.deps | b.deps)

    def unary(self, op, a):
        a = self.const(a)
        if not a.is_array:
            raise unsupported(f"{op} of a Python number")
        return Node(self, op, (a,), dtype=self._float(a.dtype, op), deps=a.deps)

    def compare(self, mode, a, b):
        a, b = self.const(a), self.const(b)
        if not a.is_array:
            a, b, mode = b, a, _SWAP[mode]
        if not a.is_array:
            raise unsupported("a comparison of two Python numbers")
        self._float(self._result_dtype(a, b, "less"), "comparison")
        return Node(self, "cmp", (a, b), arg=CMP_MODES[mode], dtype=_dtypes._D["bool"], deps=a.deps | b.deps)

    def where(self, c, a, b):
        c, a, b = self.const(c), self.const(a), self.const(b)
        if not c.is_array:
            raise unsupported("npurt.where with a Python-number condition")
        if c.dtype.name != "bool":
            c = Node(self, "cmp", (self._float_array(c), self.const(0.0)), arg=CMP_MODES["ne"],
                     dtype=_dtypes._D["bool"], deps=c.deps)
        dt = self._float(self._result_dtype(a, b, "where"), "where")
        if dt is None:
            raise unsupported("npurt.where of two Python numbers")
        return Node(self, "select", (c, a, b), dtype=dt, deps=c.deps | a.deps | b.deps)

    def _float_array(self, c):
        self._float(c.dtype, "where")
        return c

    def astype(self, x, dtype):
        x = self.const(x)
        if not isinstance(dtype, _npurt.dtype) or dtype.name not in _FLOAT_NAMES:
            raise unsupported(f"astype to {getattr(dtype, 'name', dtype)}")
        if not x.is_array or x.dtype.name == "bool":
            raise unsupported("astype of a Python number or a bool array")
        if dtype == x.dtype:
            return x
        if dtype.name == "float32":
            return Node(self, "copy", (x,), dtype=dtype, deps=x.deps)  # exact: every 16-bit float is a float32
        return Node(self, "round", (x,), arg=dtype.name, dtype=dtype, deps=x.deps)

    def power(self, x, e):
        if isinstance(e, Node):
            raise unsupported("x ** y with an array or scalar-argument exponent (use a number)")
        if isinstance(e, bool) or not isinstance(e, (int, float)):
            raise unsupported(f"x ** {type(e).__name__}")
        self._float(self._result_dtype(x, self.const(e), "pow"), "pow")
        if float(e).is_integer() and abs(e) <= 16:
            return self._int_power(x, int(e))
        return self.unary("exp", self.binary("mul", self.unary("ln", x), float(e)))

    def _int_power(self, x, n):
        if n == 0:  # x ** 0 == 1 even for NaN; keeps x's shape and dtype
            return Node(self, "dup", (), arg=1.0, dtype=x.dtype, deps=x.deps)
        k, base, acc = abs(n), x, None
        while k:
            if k & 1:
                acc = base if acc is None else self.binary("mul", acc, base)
            k >>= 1
            if k:
                base = self.binary("mul", base, base)
        return acc if n > 0 else self.binary("div", 1.0, acc)
