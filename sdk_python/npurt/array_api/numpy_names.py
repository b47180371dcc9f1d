"""numpy's spellings of the standard's functions, so numpy scripts run with one import changed.

`import npurt as np` finds the array API standard's names on npurt; numpy
scripts also use numpy's older names (`concatenate`, `transpose`, `power`,
`cumsum`, ...) and ndarray methods (`x.astype`, `x.argmax`, `x.clip`, ...).
This module maps each of them onto the standard function that computes it
on the device, with numpy's argument spelling. Nothing here computes on the
host. Names whose numpy semantics npurt does not reproduce are left out on
purpose (e.g. `x.sort()` sorting in place is provided; `np.dot` of N-D
arrays with numpy's sum-product over the last/second-to-last axes is not:
`dot` accepts 1-D and 2-D operands only and says so).
"""
import builtins
from .._npurt import ArgumentTypeError


def _nr():
    import npurt
    return npurt


def concatenate(arrays, axis=0):
    return _nr().concat(list(arrays), axis=axis)


def transpose(a, axes=None):
    nr = _nr()
    return nr.permute_dims(a, tuple(reversed(range(a.ndim))) if axes is None else tuple(axes))


def swapaxes(a, axis1, axis2):
    axes = list(range(a.ndim))
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return _nr().permute_dims(a, tuple(axes))


def ravel(a):
    return _nr().reshape(a, (-1,))


def array(obj, dtype=None, *, copy=True):
    return _nr().asarray(obj, dtype=dtype, copy=copy)


def copy(a):
    return _nr().asarray(a, copy=True)


def cumsum(a, axis=None, dtype=None):
    nr = _nr()
    if axis is None:
        a, axis = nr.reshape(a, (-1,)), 0
    return nr.cumulative_sum(a, axis=axis, dtype=dtype)


def cumprod(a, axis=None, dtype=None):
    nr = _nr()
    if axis is None:
        a, axis = nr.reshape(a, (-1,)), 0
    return nr.cumulative_prod(a, axis=axis, dtype=dtype)


def dot(a, b):
    if a.ndim > 2 or b.ndim > 2:
        raise ArgumentTypeError(f"npurt.dot: arguments 'a', 'b': only 1-D and 2-D operands are supported "
                                f"(got {a.ndim}-D and {b.ndim}-D); use npurt.matmul or npurt.tensordot")
    return _nr().matmul(a, b)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    nr = _nr()
    a, b = nr.asarray(a), nr.asarray(b)
    close = nr.abs(a - b) <= atol + rtol * nr.abs(b)
    same_inf = nr.isinf(a) & (a == b)
    close = (close & nr.isfinite(b)) | same_inf
    if equal_nan:
        close = close | (nr.isnan(a) & nr.isnan(b))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return builtins.bool(_nr().all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def atleast_1d(a):
    return _nr().reshape(a, (1,)) if a.ndim == 0 else a


ALIASES = {"absolute": "abs", "power": "pow", "mod": "remainder", "arccos": "acos", "arcsin": "asin",
           "arctan": "atan", "arctan2": "atan2", "arccosh": "acosh", "arcsinh": "asinh", "arctanh": "atanh",
           "invert": "bitwise_invert", "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift",
           "true_divide": "divide", "amax": "max", "amin": "min"}

FUNCTIONS = ["concatenate", "transpose", "swapaxes", "ravel", "array", "copy", "cumsum", "cumprod", "dot",
             "isclose", "allclose", "atleast_1d"]


def _alias(target):
    def fn(*args, **kwargs):
        return getattr(_nr(), target)(*args, **kwargs)
    fn.__name__ = target
    fn.__doc__ = f"numpy's name for npurt.{target}."
    return fn


def namespace():
    """{name: function} of every numpy spelling provided."""
    out = {name: globals()[name] for name in FUNCTIONS}
    out.update({name: _alias(target) for name, target in ALIASES.items()})
    return out


def _method(fn_name, *, first_kw=None):
    def method(self, *args, **kwargs):
        if first_kw and args:  # numpy methods take the axis positionally
            kwargs[first_kw], args = args[0], args[1:]
        return getattr(_nr(), fn_name)(self, *args, **kwargs)
    method.__name__ = fn_name
    return method


def _sort_inplace(self, axis=-1):
    self[...] = _nr().sort(self, axis=axis)


def _fill(self, value):
    self[...] = value


def _clip(self, min=None, max=None):
    return _nr().clip(self, min, max)


def install_methods(ndarray):
    """numpy's ndarray methods that npurt lacks, as thin calls into the namespace."""
    methods = {"astype": lambda self, dtype, copy=True: _nr().astype(self, dtype, copy=copy),
               "argmax": _method("argmax", first_kw="axis"), "argmin": _method("argmin", first_kw="axis"),
               "argsort": _method("argsort", first_kw="axis"), "cumsum": cumsum, "cumprod": cumprod,
               "clip": _clip, "dot": dot, "sort": _sort_inplace, "fill": _fill}
    for name, fn in methods.items():
        if not hasattr(ndarray, name):
            setattr(ndarray, name, fn)
