"""Operators with Python scalars, both orders and in place, for every dtype,
against array-api-strict (the standard's reference): bool/int/float/complex
scalars including 0, -0.0, +-inf and NaN. Where the reference refuses a mix
the case is skipped (not a valid call); ordering operators with a complex
scalar must raise in npurt (the standard: real-valued operands only).
Comparison: tools/conformance/compare.py (exact for integers and bool; the
"loose" per-dtype rtol for floats and complex, NaN positions equal)."""
import operator
import os
import sys
import warnings

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools", "conformance"))
pytest.importorskip("array_api_strict")

import npurt as nr  # noqa: E402
from compare import compare  # noqa: E402
from run import reference_namespace  # noqa: E402

xs = reference_namespace()  # pinned to the standard npurt implements (2024.12)

OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
       "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "and": operator.and_,
       "or": operator.or_, "xor": operator.xor, "lshift": operator.lshift, "rshift": operator.rshift,
       "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge, "eq": operator.eq,
       "ne": operator.ne}
IOPS = {"add": operator.iadd, "sub": operator.isub, "mul": operator.imul, "truediv": operator.itruediv,
        "floordiv": operator.ifloordiv, "mod": operator.imod, "pow": operator.ipow, "and": operator.iand,
        "or": operator.ior, "xor": operator.ixor, "lshift": operator.ilshift, "rshift": operator.irshift}
ORDERING = ("lt", "le", "gt", "ge")
SCALARS = [True, False, 0, 1, 2, -3, 7, 0.0, -0.0, 1.5, -2.5, float("inf"), float("-inf"), float("nan"), 1j, 2 - 3j]
BASES = {"bool": [True, False, True, False, True], "u": [0, 1, 3, 5, 2], "i": [-4, -1, 0, 3, 5],
         "f": [-1.5, -0.0, 0.0, 2.0, float("nan")], "c": [1 + 2j, -0.0, 3 - 1j, complex("nan"), 2]}
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
          "complex64", "complex128"]


def base(dt):
    key = "bool" if dt == "bool" else np.dtype(dt).kind
    return np.array(BASES[key], dt)


def reference(fn):
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(), True
    except Exception:
        return None, False


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", sorted(OPS))
def test_operator_with_python_scalars(dt, name):
    op, tol = OPS[name], "loose" if dt.startswith(("float", "complex")) else "exact"
    b = base(dt)
    for s in SCALARS:
        for rev in (False, True):
            call = (lambda a: op(s, a)) if rev else (lambda a: op(a, s))
            if name in ORDERING and isinstance(s, complex):
                with pytest.raises(Exception, match="npurt"):
                    call(nr.asarray(b.copy()))
                continue
            expected, ok = reference(lambda: call(xs.asarray(b.copy())))
            if not ok:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = call(nr.asarray(b.copy()))
            compare(got, expected, tol, nr, where=f"{dt} {name} {'scalar-array' if rev else 'array-scalar'} {s!r}")
        if name in IOPS:
            expected, ok = reference(lambda: IOPS[name](xs.asarray(b.copy()), s))
            if ok:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    got = IOPS[name](nr.asarray(b.copy()), s)
                compare(got, expected, tol, nr, where=f"{dt} i{name} {s!r}")
