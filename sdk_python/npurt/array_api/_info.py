"""__array_namespace_info__(): what this namespace supports (array API 2024.12)."""
from .. import _npurt
from . import _dtypes

_EXTENSION_DTYPES = ("float16", "bfloat16")


class Info:
    def capabilities(self):
        # Boolean masks and nonzero: the result size comes from the device (a read of one count).
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return _npurt.current_device()

    def devices(self):
        return list(_npurt.devices())

    def default_dtypes(self, *, device=None):
        return {"real floating": _dtypes.DEFAULT_FLOAT, "complex floating": _dtypes._D["complex64"],
                "integral": _dtypes.DEFAULT_INT, "indexing": _dtypes.DEFAULT_INDEX}

    def dtypes(self, *, device=None, kind=None):
        # Only the standard's data types: "a dictionary of supported *array API* data types"
        # (2024.12); float16/bfloat16 stay usable as npurt.float16/bfloat16 but are extensions
        # (array-api-tests asserts every key is one of the standard's dtype names).
        names = [n for n in _dtypes._D if n not in _EXTENSION_DTYPES]
        out = {n: _dtypes._D[n] for n in names}
        if kind is None:
            return out
        return {n: d for n, d in out.items() if _dtypes.isdtype(d, kind)}


def __array_namespace_info__():
    return Info()
