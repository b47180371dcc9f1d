"""__array_namespace_info__(): what this namespace supports (array API 2024.12)."""
from .. import _npurt
from . import _dtypes


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
        names = [n for n in _dtypes._D if n != "bfloat16"]
        out = {n: _dtypes._D[n] for n in names}
        if kind is None:
            return out
        return {n: d for n, d in out.items() if _dtypes.isdtype(d, kind)}


def __array_namespace_info__():
    return Info()
