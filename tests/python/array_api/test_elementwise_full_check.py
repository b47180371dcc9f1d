"""Binary elementwise kernels are clean under NPURT_SIM_CHECK=full with every
operand shape the kernel's CopyIn treats differently: same shape, a Python
scalar (tensor-scalar path), a broadcast row (stride 0 inner: Duplicate) and a
broadcast column. The full level models the pipes: a scalar-unit read of what
the vector unit wrote without a V->S flag is an ErrorSync2 there, as a race
on the NPU would be."""
import numpy as np
import pytest

import npurt as nr

# (npurt function, numpy reference, operand dtypes). Integer division by 0 is
# kept out of the operands (values start at 1).
CASES = [
    ("add", np.add, ("float32", "float16", "int32")),
    ("subtract", np.subtract, ("float32", "int32")),
    ("multiply", np.multiply, ("float32", "int32")),
    ("divide", np.divide, ("float32",)),
    ("pow", np.power, ("float32",)),
    ("maximum", np.maximum, ("float32", "int32")),
    ("greater", np.greater, ("float32", "int32", "float16")),
    ("less_equal", np.less_equal, ("float32", "int32")),
    ("equal", np.equal, ("float32", "int32")),
    ("remainder", np.remainder, ("float32", "int32")),
    ("floor_divide", np.floor_divide, ("float32", "int32")),
    ("atan2", np.arctan2, ("float32",)),
    ("hypot", np.hypot, ("float32",)),
    ("logaddexp", np.logaddexp, ("float32",)),
    ("bitwise_and", np.bitwise_and, ("int32",)),
    ("copysign", np.copysign, ("float32",)),
]


def operands(dtype):
    a = (np.arange(1, 15 * 33 + 1) % 97 + 1).reshape(15, 33).astype(dtype)
    row = (np.arange(33) % 7 + 1).astype(dtype)[None, :]
    col = (np.arange(15) % 5 + 1).astype(dtype)[:, None]
    return a, [a[::-1].copy(), row, col]


def check(got, want, dtype):
    got = np.asarray(got)
    if np.dtype(dtype).kind == "f" and want.dtype.kind == "f":
        tol = 2e-3 if dtype == "float16" else 2e-6
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name,ref,dtypes", CASES, ids=[c[0] for c in CASES])
def test_binary_clean_at_full_check(name, ref, dtypes):
    fn = getattr(nr, name)
    with nr.debug.sim_check_level("full"):
        for dtype in dtypes:
            a, others = operands(dtype)
            x = nr.asarray(a)
            for b in others:
                check(fn(x, nr.asarray(b)), ref(a, b), dtype)
                check(fn(nr.asarray(b), x), ref(b, a), dtype)
            s = 3 if np.dtype(dtype).kind == "i" else 3.0
            check(fn(x, s), ref(a, np.asarray(s, dtype=dtype)), dtype)
            check(fn(s, x), ref(np.asarray(s, dtype=dtype), a), dtype)
