"""Argument checks shared by the array layer's Python functions, and `public`, the one
place that makes an error name the function the user called.

Invariants: every error raised here reads "<where>: argument '<arg>': <reason>" (the
format of npurt::throw_invalid_argument in C++), with nr.ArgumentTypeError (a TypeError) for
a wrong type and nr.InvalidArgumentError (a ValueError) for a wrong value. `public` touches only the error path: a call that
succeeds pays one extra Python frame and nothing else, so it decorates composite
functions (ones over full, std over var over mean, ...), never the operator hot path.
"""
import functools
import operator

from .._npurt import ArgumentTypeError, InvalidArgumentError

INT64_MAX = (1 << 63) - 1


def int_sequence(value, where, arg):
    """value (an int, or a sequence of ints) as a tuple of Python ints. operator.index takes ints,
    numpy integers and 0-d integer arrays, and refuses floats (2.5 is no size; int() truncated it)."""
    try:
        return (operator.index(value),)
    except TypeError:
        pass
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) and \
            not hasattr(value, "__len__"):
        raise ArgumentTypeError(f"{where}: argument '{arg}': expected an int or a sequence of ints, got "
                                f"{type(value).__name__}")
    out = []
    for i, v in enumerate(value):
        try:
            out.append(operator.index(v))
        except TypeError:
            raise ArgumentTypeError(f"{where}: argument '{arg}': element {i} is a {type(v).__name__}, not an "
                                    "int") from None
    return tuple(out)


def sizes(value, where, arg="shape"):
    """A shape (or repeat counts): ints >= 0 whose product fits in int64 (kernels index with int64)."""
    dims = int_sequence(value, where, arg)
    total = 1
    for d in dims:
        if d < 0:
            raise InvalidArgumentError(f"{where}: argument '{arg}': {value!r} has a negative size {d}")
        if d > INT64_MAX:
            raise InvalidArgumentError(f"{where}: argument '{arg}': size {d} does not fit in int64")
        total *= d
    if total > INT64_MAX:
        raise InvalidArgumentError(f"{where}: argument '{arg}': {dims} has too many elements (int64 overflow)")
    return dims


def array_sequence(value, where, arg="arrays"):
    """A list of the items of a sequence of arrays (the items are checked by the caller)."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise ArgumentTypeError(f"{where}: argument '{arg}': expected a sequence of npurt.ndarray, got "
                                f"{type(value).__name__}")
    return list(value)


def blame(e, where, arg):
    """Rewrites e in place (class, .code and traceback kept) so it blames argument `arg` of `where`,
    keeping the reason: for an inner call whose own argument name means nothing to the caller
    ("npurt.dtype: argument 'dtype': unknown dtype 'x'" from finfo('x') blames finfo's 'type')."""
    parts = str(e).split(": ", 2)
    reason = parts[-1] if len(parts) == 3 and parts[1].startswith("argument") else str(e)
    e.args = (f"{where}: argument '{arg}': {reason}",) + tuple(e.args[1:])
    return e


def _relabel(e, where, size_arg):
    """Rewrites e's message in place so it opens with `where` (keeps its class and traceback)."""
    msg = str(e)
    if msg.startswith(where + ":"):
        return
    head, sep, rest = msg.partition(": ")
    inner = head if sep and head.startswith("npurt.") and " " not in head else None
    if isinstance(e, MemoryError) and size_arg:
        names = (size_arg,) if isinstance(size_arg, str) else size_arg
        label = "argument" if len(names) == 1 else "arguments"
        msg = f"{where}: {label} {', '.join(repr(n) for n in names)}: the result does not fit: {msg}"
    elif inner is not None:
        # the innermost function is the informative one: nested composites keep only it
        msg = f"{where}: {rest}" if rest.endswith(")") and " (raised by npurt." in rest else \
            f"{where}: {rest} (raised by {inner})"
    else:
        msg = f"{where}: {msg}"
    e.args = (msg,) + tuple(e.args[1:])


def public(where, size_arg=None):
    """Decorator for a public composite function: an error raised by what it calls (another npurt
    function, the pool) is re-labelled with `where`, the function the user called, keeping the
    argument and reason ("npurt.std: argument 'axis': ... (raised by npurt.mean)"). size_arg names
    the argument(s) (a name or a tuple) to blame for an out-of-memory error: the result's size."""
    def wrap(fn):
        @functools.wraps(fn)
        def call(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except (TypeError, ValueError, IndexError, MemoryError, RuntimeError, NotImplementedError) as e:
                _relabel(e, where, size_arg)
                raise
        return call
    return wrap
