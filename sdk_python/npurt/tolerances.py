"""npurt.tolerances: the per-dtype default tolerances used across npurt's tests.

One table, used by ``nr.testing.compare``/``assert_allclose`` when rtol/atol
are not given, by ``python -m npurt compare`` and by the project's own tests.
The float values follow ``torch.testing.assert_close`` (the tolerances users
of Ascend kernels already know); integers and bools must match exactly.

    dtype        rtol      atol
    float16      1e-3      1e-5
    bfloat16     1.6e-2    1e-5
    float32      1.3e-6    1e-5
    float64      1e-7      1e-7
    complex64    1.3e-6    1e-5
    complex128   1e-7      1e-7
    float8_*     1.25e-1   1e-3   (ml_dtypes 8-bit floats; 3 mantissa bits or fewer)
    int*/uint*/bool  0     0

Invariant: every dtype npurt stores has an entry or a rule (ints exact).
"""
from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

try:
    import ml_dtypes as _ml
except ImportError:  # pragma: no cover - ml_dtypes is a dependency of npurt
    _ml = None

__all__ = ["DEFAULT_TOLERANCES", "default_tolerance", "is_float_dtype", "ulp_bits"]

DEFAULT_TOLERANCES = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
    "complex64": (1.3e-6, 1e-5),
    "complex128": (1e-7, 1e-7),
}
_FLOAT8_TOLERANCE = (1.25e-1, 1e-3)


def _ml_finfo(dtype: np.dtype):
    if _ml is None:
        return None
    try:
        return _ml.finfo(dtype)
    except (ValueError, TypeError):
        return None


def is_float_dtype(dtype) -> bool:
    """True for numpy floats and ml_dtypes floats (bfloat16, float8_*), not complex."""
    dtype = np.dtype(dtype)
    return dtype.kind == "f" or (dtype.kind == "V" and _ml_finfo(dtype) is not None)


def ulp_bits(dtype) -> Optional[int]:
    """Bit width usable for ULP arithmetic, or None (non-float, or sub-byte float formats)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return dtype.itemsize * 8
    info = _ml_finfo(dtype) if dtype.kind == "V" else None
    if info is None or info.bits != dtype.itemsize * 8:
        return None
    return info.bits


def default_tolerance(dtype) -> Tuple[float, float]:
    """(rtol, atol) for comparing values of `dtype`; raises TypeError for unknown kinds."""
    dtype = np.dtype(dtype)
    if dtype.name in DEFAULT_TOLERANCES:
        return DEFAULT_TOLERANCES[dtype.name]
    if dtype.kind in "biu":
        return (0.0, 0.0)
    if is_float_dtype(dtype) and dtype.itemsize == 1:
        return _FLOAT8_TOLERANCE
    raise TypeError(f"npurt.testing.default_tolerance: argument 'dtype': no default tolerance "
                    f"for dtype {dtype}; pass rtol and atol explicitly")
