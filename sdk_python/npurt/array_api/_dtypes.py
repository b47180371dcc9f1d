"""Data type functions of the array API: the promotion table, result_type,
can_cast, finfo, iinfo, isdtype.

Promotion follows the standard's table (2024.12) inside each kind: bool with
bool, signed with signed, unsigned with unsigned, float with float (bfloat16
with float16 gives float32), and mixed signed/unsigned integers as the
standard lists (uint64 with a signed integer has no common type: TypeError).
Mixing kinds, which the standard leaves to implementations, follows numpy:
bool joins the other kind, an integer with a float gives the smallest float
holding the integer's range (8-bit -> float16, 16-bit -> float32, wider ->
float64, float64 being a sim-only dtype). Complex dtypes follow the
standard's table with real floats (float32 + complex64 -> complex64,
float64 + complex64 -> complex128); integers with complex give complex128
(numpy). float64 and complex arithmetic are sim-only (docs/array-api-complex.md).
"""
import builtins

from .. import _npurt
from .._npurt import ArgumentTypeError, InvalidArgumentError, UnsupportedDtypeError
from . import _args

_D = {n: getattr(_npurt, n) for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                      "uint64", "float16", "bfloat16", "float32", "float64", "complex64",
                                      "complex128")}
_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
_FLOATS = ("float16", "bfloat16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")
_BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}

DEFAULT_FLOAT = _D["float32"]
DEFAULT_INT = _D["int64"]
DEFAULT_INDEX = _D["int64"]


def kind(dt):
    n = dt.name
    if n == "bool":
        return "b"
    if n in _SIGNED:
        return "i"
    if n in _UNSIGNED:
        return "u"
    if n in _FLOATS:
        return "f"
    return "c"


def _float_rank(n):
    return {"float16": 0, "bfloat16": 0, "float32": 1, "float64": 2}[n]


def _promote_names(a, b):
    if a == b:
        return a
    ka, kb = kind(_D[a]), kind(_D[b])
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka == kb and ka in "iu":
        return a if _BITS[a] >= _BITS[b] else b
    if ka in "iu" and kb in "iu":
        s, u = (a, b) if ka == "i" else (b, a)
        if u == "uint64":
            return None
        need = 2 * _BITS[u]
        return f"int{builtins.max(need, _BITS[s])}"
    if ka == "f" and kb == "f":
        if {a, b} == {"float16", "bfloat16"}:
            return "float32"
        return a if _float_rank(a) >= _float_rank(b) else b
    if ka == "c" or kb == "c":
        if ka == "c" and kb == "c":
            return "complex128" if "complex128" in (a, b) else "complex64"
        f = b if ka == "c" else a
        c = a if ka == "c" else b
        if kind(_D[f]) in "iu" or f == "float64":
            return "complex128"
        return c
    i, f = (a, b) if ka in "iu" else (b, a)
    as_float = {8: "float16", 16: "float32"}.get(_BITS[i], "float64")
    return _promote_names(as_float, f)


_TABLE = {}
for _a in _D:
    for _b in _D:
        _r = _promote_names(_a, _b)
        _TABLE[(_D[_a], _D[_b])] = None if _r is None else _D[_r]


def promote(a, b, where="npurt.result_type"):
    r = _TABLE.get((a, b))
    if r is None:
        raise UnsupportedDtypeError(f"{where}: dtypes {a} and {b} have no common type in the array API promotion table")
    return r


def _as_dtype(x, where, arg):
    if isinstance(x, _npurt.dtype):
        return x
    if isinstance(x, _npurt.ndarray):
        return x.dtype
    if isinstance(x, str):
        try:
            return _npurt.dtype(x)
        except ValueError as e:
            raise _args.blame(e, where, arg)
    raise ArgumentTypeError(f"{where}: argument '{arg}': expected an array or a dtype, got {type(x).__name__}")


def result_type(*arrays_and_dtypes):
    """The dtype of an operation on these arrays/dtypes/Python scalars (array API rules)."""
    where = "npurt.result_type"
    dts = [_as_dtype(x, where, "arrays_and_dtypes") for x in arrays_and_dtypes
           if not isinstance(x, (builtins.bool, int, float, complex))]
    scalars = [x for x in arrays_and_dtypes if isinstance(x, (builtins.bool, int, float, complex))]
    if not dts:
        if not scalars:
            raise InvalidArgumentError(f"{where}: at least one array or dtype is required")
        dts = [scalar_dtype(scalars[0])]
        scalars = scalars[1:]
    r = dts[0]
    for d in dts[1:]:
        r = promote(r, d, where)
    for s in scalars:
        r = scalar_result(r, s, where)
    return r


def scalar_dtype(s):
    if isinstance(s, builtins.bool):
        return _D["bool"]
    if isinstance(s, int):
        return DEFAULT_INT
    if isinstance(s, float):
        return DEFAULT_FLOAT
    return _D["complex64"]


def scalar_result(dt, s, where):
    """Array dtype `dt` combined with Python scalar `s`: the array's dtype when
    the scalar's kind fits it (bool < int < float < complex), else the default
    dtype of the scalar's kind promoted with dt."""
    k = kind(dt)
    if isinstance(s, builtins.bool):
        return dt
    if isinstance(s, int):
        return dt if k != "b" else DEFAULT_INT
    if isinstance(s, float):
        return dt if k in "fc" else DEFAULT_FLOAT
    if isinstance(s, complex):
        # the complex dtype of the array's precision: float64 -> complex128, else the default complex64
        if k == "c":
            return dt
        return _D["complex128"] if dt.name == "float64" else _D["complex64"]
    raise ArgumentTypeError(f"{where}: unsupported scalar type {type(s).__name__}")


def can_cast(from_, to, /):
    """True when `from_` promotes to `to` under the type promotion rules."""
    f = _as_dtype(from_, "npurt.can_cast", "from_")
    t = _as_dtype(to, "npurt.can_cast", "to")
    return _TABLE.get((f, t)) == t


class finfo_object:
    def __init__(self, bits, eps, max, min, smallest_normal, dtype):
        self.bits, self.eps, self.max, self.min = bits, eps, max, min
        self.smallest_normal, self.dtype = smallest_normal, dtype

    def __repr__(self):
        return f"finfo(bits={self.bits}, eps={self.eps}, max={self.max}, min={self.min}, dtype={self.dtype})"


class iinfo_object:
    def __init__(self, bits, max, min, dtype):
        self.bits, self.max, self.min, self.dtype = bits, max, min, dtype

    def __repr__(self):
        return f"iinfo(bits={self.bits}, max={self.max}, min={self.min}, dtype={self.dtype})"


# (bits, mantissa bits p, emax, emin): value = (2 - 2**(1-p)) * 2**emax etc.
_FLOAT_FORMAT = {"float16": (16, 11, 15, -14), "bfloat16": (16, 8, 127, -126), "float32": (32, 24, 127, -126),
                 "float64": (64, 53, 1023, -1022), "complex64": (32, 24, 127, -126),
                 "complex128": (64, 53, 1023, -1022)}


def finfo(type, /):  # noqa: A002  (the standard's parameter name)
    dt = _as_dtype(type, "npurt.finfo", "type")
    if dt.name not in _FLOAT_FORMAT:
        raise UnsupportedDtypeError(f"npurt.finfo: argument 'type': {dt} is not a floating-point dtype")
    bits, p, emax, emin = _FLOAT_FORMAT[dt.name]
    mx = (2.0 - 2.0 ** (1 - p)) * 2.0 ** emax
    real = {"complex64": _D["float32"], "complex128": _D["float64"]}.get(dt.name, dt)
    return finfo_object(bits, 2.0 ** (1 - p), mx, -mx, 2.0 ** emin, real)


def iinfo(type, /):  # noqa: A002
    dt = _as_dtype(type, "npurt.iinfo", "type")
    if dt.name not in _BITS:
        raise UnsupportedDtypeError(f"npurt.iinfo: argument 'type': {dt} is not an integer dtype")
    b = _BITS[dt.name]
    if dt.name in _SIGNED:
        return iinfo_object(b, 2 ** (b - 1) - 1, -(2 ** (b - 1)), dt)
    return iinfo_object(b, 2 ** b - 1, 0, dt)


_KINDS = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
          "real floating": "f", "complex floating": "c", "numeric": "iufc"}


def isdtype(dtype, kind):
    """True when `dtype` is of `kind` (a dtype, a kind name, or a tuple of them). The
    parameters carry the standard's names (array-api-tests checks them)."""
    return _isdtype(dtype, kind)


def _isdtype(dtype, kind_):
    if not isinstance(dtype, _npurt.dtype):
        raise UnsupportedDtypeError("npurt.isdtype: argument 'dtype': expected an npurt.dtype, got "
                                    f"{builtins.type(dtype).__name__}")
    if isinstance(kind_, tuple):
        return builtins.any(_isdtype(dtype, k) for k in kind_)
    if isinstance(kind_, _npurt.dtype):
        return dtype == kind_
    if isinstance(kind_, str) and kind_ in _KINDS:
        return kind(dtype) in _KINDS[kind_]
    raise InvalidArgumentError(f"npurt.isdtype: argument 'kind': unknown kind {kind_!r} (one of {sorted(_KINDS)})")
