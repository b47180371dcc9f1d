"""npurt.array_api: the Python array API standard (2024.12) over npurt's
kernels: dtype functions and promotion, elementwise functions, operators on
nr.ndarray, creation. Everything it exports is re-exported by `npurt`, so
`import npurt as np`-style code finds the standard's names on the package.
"""
from .._npurt import InvalidArgumentError
from . import _operators
from ._creation import asarray, empty, empty_like, full, full_like, ones, ones_like, zeros, zeros_like
from ._creation import arange, eye, linspace, meshgrid, tril, triu
from ._scan import cumulative_prod, cumulative_sum, diff
from ._advanced import nonzero, take, take_along_axis
from .manipulation import broadcast_shapes
from ._constants import e, inf, nan, newaxis, pi
from ._dtypes import can_cast, finfo, iinfo, isdtype, result_type
from ._elementwise import *  # noqa: F401,F403  (the standard's elementwise names)
from ._elementwise import __all__ as _ELEMENTWISE
from ._info import __array_namespace_info__
from . import indexing, interop, manipulation, reductions
from .interop import from_dlpack
from .manipulation import (broadcast_arrays, broadcast_to, concat, expand_dims, flip, matrix_transpose,
                           moveaxis, permute_dims, repeat, reshape, roll, squeeze, stack, tile, unstack)
from .reductions import all, any, count_nonzero, max, mean, min, prod, std, sum, var  # noqa: A004

_STRUCTURE = ["from_dlpack", "broadcast_arrays", "broadcast_to", "concat", "expand_dims", "flip",
              "matrix_transpose", "moveaxis", "permute_dims", "repeat", "reshape", "roll", "squeeze", "stack",
              "tile", "unstack", "all", "any", "count_nonzero", "max", "mean", "min", "prod", "std", "sum",
              "var"]

from .linalg import matmul, tensordot, vecdot, __all__ as _LINALG  # noqa: E402

__array_api_version__ = "2024.12"

_INDEXING = ["arange", "eye", "linspace", "meshgrid", "tril", "triu", "cumulative_prod", "cumulative_sum", "diff",
             "nonzero", "take", "take_along_axis", "broadcast_shapes", "e", "inf", "nan", "newaxis", "pi"]

__all__ = ["__array_api_version__", "__array_namespace_info__", "can_cast", "finfo", "iinfo", "isdtype",
           "result_type", "asarray", "empty", "zeros", "empty_like", "full", "full_like", "ones", "ones_like", "zeros_like"] + list(_ELEMENTWISE) + _STRUCTURE + _INDEXING + _LINALG
# searching, sorting, sets (kernels/sort, kernels/reduction/argreduce_*)
from . import searching, sets  # noqa: E402
from .searching import argmax, argmin, argsort, searchsorted, sort  # noqa: E402
from .sets import isin, unique_all, unique_counts, unique_inverse, unique_values  # noqa: E402
__all__ += searching.__all__ + sets.__all__


def _array_namespace(self, /, *, api_version=None):
    if api_version not in (None, "2024.12", "2023.12", "2022.12"):
        raise InvalidArgumentError(f"npurt.ndarray.__array_namespace__: argument 'api_version': {api_version!r} "
                                   "is not supported")
    import npurt
    return npurt


_operators.install()
_operators.ndarray.__array_namespace__ = _array_namespace
