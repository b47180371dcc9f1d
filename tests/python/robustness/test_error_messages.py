"""Error messages name the public function, the argument and the reason (wave 8: the gaps the
surface sweep recorded in known_gaps.json; wave 9: the last one, gather's out-of-range indices),
one test per class of fix; each checks that the runtime computes right afterwards (a numpy
reference)."""
import gc
import math
import re

import numpy as np
import pytest


def usable(nr):
    gc.collect()
    host = np.arange(33, dtype=np.float32)
    np.testing.assert_array_equal((nr.asarray(host) * 2 + 1).numpy(), host * 2 + 1)
    nr.synchronize()


def f32(nr, shape=(3,)):
    return nr.asarray(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape))


def raises_then_usable(nr, call, exc, match):
    """call(nr, x), x a (2, 3) float32 array, raises exc with a message matching match; the
    runtime computes right afterwards."""
    x = f32(nr, (2, 3))
    with pytest.raises(exc, match=match):
        call(nr, x)
    usable(nr)


# ---- the dispatcher: every missing required input / attribute in one message ----

@pytest.mark.parametrize("call, match", [
    (lambda nr: nr.ops.add(), r"npurt\.ops\.add: arguments 'x', 'y': required inputs are missing"),
    (lambda nr: nr.ops.add(y=None), r"npurt\.ops\.add: arguments 'x', 'y': required inputs are missing"),
    (lambda nr: nr.ops.add(f32(nr)), r"npurt\.ops\.add: argument 'y': required input is missing"),
    (lambda nr: nr.ops.where(x1=None), r"npurt\.ops\.where: arguments 'condition', 'x1', 'x2': required inputs"),
    (lambda nr: nr.ops.eye(), r"npurt\.ops\.eye: arguments 'n_rows', 'n_cols': required attributes are missing"),
    (lambda nr: nr.ops.eye(n_cols=3), r"npurt\.ops\.eye: argument 'n_rows': required attribute is missing"),
    (lambda nr: nr.ops.describe("add", None), r"npurt\.ops\.add: arguments 'x', 'y': required inputs are missing"),
])
def test_missing_op_arguments_are_all_named(nr, call, match):
    with pytest.raises(nr.InvalidArgumentError, match=match):
        call(nr)
    usable(nr)


# ---- the array layer: shapes, counts, sequences of arrays ----

# A wrong type: TypeError from the Python layer (full, ones), InvalidArgumentError (a ValueError)
# from C++ (empty, zeros): both name the function and the argument.
WRONG_TYPE = (TypeError, ValueError)


@pytest.mark.parametrize("fn, arg", [("empty", "shape"), ("zeros", "shape"), ("ones", "shape"), ("full", "shape")])
@pytest.mark.parametrize("bad, exc, reason", [
    (None, WRONG_TYPE, "expected an int or a (sequence|tuple) of ints, got NoneType"),
    (2.5, WRONG_TYPE, "expected an int or a (sequence|tuple) of ints, got float"),
    ((2, "a"), WRONG_TYPE, "(element 1 is a str|dimension 1 must be an integer, got str)"),
    ((-1,), ValueError, "negative"),
    ((2**40, 2**40, 4), ValueError, "too many elements"),
    ((2**40,), MemoryError, "out of memory"),
])
def test_creation_shape_errors(nr, fn, arg, bad, exc, reason):
    args = (bad, 1.0) if fn == "full" else (bad,)
    with pytest.raises(exc, match=rf"npurt\.{fn}: argument '{arg}': .*{reason}"):
        getattr(nr, fn)(*args)
    usable(nr)


@pytest.mark.parametrize("call, exc, match", [
    (lambda nr, x: nr.tile(x, None), TypeError, r"npurt\.tile: argument 'repetitions': expected an int"),
    (lambda nr, x: nr.tile(x, (2**40, 2**40)), ValueError, r"npurt\.tile: argument 'repetitions': .*too many"),
    (lambda nr, x: nr.repeat(x, 2.5), TypeError, r"npurt\.repeat: argument 'repeats': expected an int"),
    (lambda nr, x: nr.repeat(x, 2**70), ValueError, r"npurt\.repeat: argument 'repeats': .*does not fit in int64"),
    (lambda nr, x: nr.repeat(x, 2**40), MemoryError, r"npurt\.repeat: argument 'repeats': the result does not fit"),
    (lambda nr, x: nr.broadcast_to(x, "ab"), TypeError, r"npurt\.broadcast_to: argument 'shape': expected an int"),
    (lambda nr, x: nr.permute_dims(x, None), TypeError, r"npurt\.permute_dims: argument 'axes': expected an int"),
    (lambda nr, x: nr.concat(None), TypeError, r"npurt\.concat: argument 'arrays': expected a sequence"),
    (lambda nr, x: nr.stack(1.5), TypeError, r"npurt\.stack: argument 'arrays': expected a sequence"),
    (lambda nr, x: nr.eye(2**40), ValueError, r"npurt\.eye: arguments 'n_rows', 'n_cols': .*too many elements"),
    (lambda nr, x: nr.eye(3, 2**40), MemoryError, r"npurt\.eye: arguments 'n_rows', 'n_cols': the result does"),
    (lambda nr, x: nr.linspace(0, 1, 2**40), MemoryError, r"npurt\.linspace: argument 'num': the result does"),
    (lambda nr, x: nr.arange(math.inf), ValueError, r"npurt\.arange: arguments 'start', 'stop', 'step': .*finite"),
])
def test_size_and_sequence_arguments(nr, call, exc, match):
    raises_then_usable(nr, call, exc, match)


def test_size_helpers_keep_valid_calls_right(nr):
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = nr.asarray(host)
    np.testing.assert_array_equal(nr.tile(x, 2).numpy(), np.tile(host, 2))
    np.testing.assert_array_equal(nr.tile(x, (2, 1)).numpy(), np.tile(host, (2, 1)))
    np.testing.assert_array_equal(nr.repeat(x, 2).numpy(), np.repeat(host, 2))
    np.testing.assert_array_equal(nr.repeat(x, [1, 2], axis=0).numpy(), np.repeat(host, [1, 2], axis=0))
    np.testing.assert_array_equal(nr.repeat(x, np.int64(3), axis=1).numpy(), np.repeat(host, 3, axis=1))
    np.testing.assert_array_equal(nr.broadcast_to(x, (4, 2, 3)).numpy(), np.broadcast_to(host, (4, 2, 3)))
    np.testing.assert_array_equal(nr.permute_dims(x, [1, 0]).numpy(), host.T)
    np.testing.assert_array_equal(nr.full(np.int64(3), 2.0).numpy(), np.full(3, 2.0, np.float32))
    np.testing.assert_array_equal(nr.ones((0, 3)).numpy(), np.ones((0, 3), np.float32))
    np.testing.assert_array_equal(nr.eye(3, 2, k=-1).numpy(), np.eye(3, 2, k=-1, dtype=np.float32))


# ---- composites: the inner function's error, labelled with the one the user called ----

@pytest.mark.parametrize("call, exc, match", [
    (lambda nr, x: nr.std(x, axis=5), IndexError, r"npurt\.std: argument 'axis': axis 5 is out of bounds"),
    (lambda nr, x: nr.var(x, axis="0"), TypeError, r"npurt\.var: argument 'axis': expected an integer"),
    (lambda nr, x: nr.var(x, correction=None), TypeError, r"npurt\.var: argument 'correction': expected a real"),
    (lambda nr, x: nr.std(x.astype(nr.bfloat16)), TypeError, r"npurt\.std: argument 'x': bfloat16"),
    (lambda nr, x: nr.ones(3, dtype="x"), TypeError, r"npurt\.ones: argument 'dtype': expected an npurt\.dtype"),
    (lambda nr, x: nr.full_like(x, None), TypeError, r"npurt\.full_like: argument 'fill_value'"),
    (lambda nr, x: nr.zeros_like(x, dtype="x"), ValueError, r"npurt\.zeros_like: argument 'dtype': unknown dtype"),
    (lambda nr, x: nr.clip(x, "a"), TypeError, r"npurt\.clip: argument 'min': expected an npurt\.ndarray"),
    (lambda nr, x: nr.clip(x, max={}), TypeError, r"npurt\.clip: argument 'max': expected an npurt\.ndarray"),
    (lambda nr, x: nr.from_dlpack(np.ones(3), device="x"), ValueError, r"npurt\.from_dlpack: argument 'device'"),
    (lambda nr, x: nr.finfo("x"), ValueError, r"npurt\.finfo: argument 'type': unknown dtype 'x'"),
    (lambda nr, x: nr.iinfo(None), TypeError, r"npurt\.iinfo: argument 'type': expected an array or a dtype"),
    (lambda nr, x: nr.can_cast(nr.int8, {}), TypeError, r"npurt\.can_cast: argument 'to': expected an array"),
    (lambda nr, x: nr.max(nr.ones((0,))), ValueError, r"npurt\.max: argument 'x': zero-size reduction"),
    (lambda nr, x: nr.min(nr.ones((0, 3)), axis=0), ValueError, r"npurt\.min: argument 'x': zero-size reduction"),
])
def test_composites_name_the_called_function(nr, call, exc, match):
    raises_then_usable(nr, call, exc, match)


def test_relabelled_error_keeps_class_and_code(nr):
    x = f32(nr, (2, 3))
    with pytest.raises(nr.InvalidArgumentError) as direct:
        nr.zeros(3, dtype="nope")  # raised by C++ as is
    with pytest.raises(nr.InvalidArgumentError) as e:
        nr.zeros_like(x, dtype="nope")
    assert e.value.code == direct.value.code
    assert str(e.value).startswith("npurt.zeros_like: argument 'dtype': ")
    assert str(e.value).count("(raised by") == 1


def test_nested_composites_keep_one_origin(nr):
    # std -> var -> mean: the message names std and the innermost function, once
    with pytest.raises(IndexError) as e:
        nr.std(f32(nr, (2, 3)), axis=-5)
    msg = str(e.value)
    assert msg.startswith("npurt.std: argument 'axis'") and msg.count("(raised by") == 1, msg


def test_bitwise_blames_the_scalar_that_forced_a_float(nr):
    x = nr.asarray(np.arange(6, dtype=np.int32))
    with pytest.raises(TypeError, match=r"npurt\.bitwise_and: argument 'x2': a float operand promotes x1 "
                                        r"from int32 to float32"):
        nr.bitwise_and(x, 1.5)
    with pytest.raises(TypeError, match=r"npurt\.bitwise_or: argument 'x1': dtype float32 is not supported"):
        nr.bitwise_or(2.5, x)  # the float scalar is x1 itself
    with pytest.raises(TypeError, match=r"npurt\.bitwise_and: argument 'x1': dtype float64 is not"):
        nr.bitwise_and(x.astype(nr.float32), x)  # two arrays: the float array is the caller's own choice
    np.testing.assert_array_equal(nr.bitwise_and(x, 3).numpy(), np.arange(6, dtype=np.int32) & 3)
    usable(nr)


# ---- ndarray methods and operators ----

@pytest.mark.parametrize("call, exc, match", [
    (lambda x: x[0:2:0], ValueError, r"npurt\.ndarray\.__getitem__: argument 'key': slice step cannot be zero"),
    (lambda x: x.__setitem__(slice(None, None, 0), 1.0), ValueError,
     r"npurt\.ndarray\.__setitem__: argument 'key': slice step cannot be zero"),
    (lambda x: x.transpose((0, 0)), ValueError, r"npurt\.ndarray\.transpose: argument 'axes': \(0, 0\) is not"),
    (lambda x: x.sum(9), TypeError, r"npurt\.ndarray\.sum: "),
    (lambda x: x.var(axis=7), IndexError, r"npurt\.ndarray\.var: argument 'axis'"),
    (lambda x: x.__dlpack__("s"), TypeError, r"npurt\.ndarray\.__dlpack__: "),
    (lambda x: x @ x, ValueError, r"npurt\.matmul: argument 'x2': contracted dimension"),
])
def test_ndarray_methods_name_themselves(nr, call, exc, match):
    x = f32(nr, (2, 3))
    with pytest.raises(exc, match=match):
        call(x)
    usable(nr)


# ---- runtime functions ----

@pytest.mark.parametrize("call, exc, match", [
    (lambda nr: nr.memory.round_size(-1), ValueError, r"npurt\.memory\.round_size: argument 'nbytes': must be in"),
    (lambda nr: nr.memory.round_size(2**70), ValueError, r"npurt\.memory\.round_size: argument 'nbytes'"),
    (lambda nr: nr.memory.round_size("1"), ValueError, r"npurt\.memory\.round_size: argument 'nbytes': expected an int"),
    (lambda nr: nr.ops.get("ad"), "NotFoundError", r"npurt\.ops\.get: argument 'name': unknown op 'ad' \(did you mean"),
    (lambda nr: nr.ops.describe("nope"), "NotFoundError", r"npurt\.ops\.describe: argument 'name': unknown op 'nope'"),
    (lambda nr: nr.ops.load_library("/nonexistent/lib.so"), "NotFoundError", r"npurt\.ops\.load_library: "),
    (lambda nr: nr.fuse(lambda a: a + 1)("x"), TypeError, r"npurt\.fuse\(<lambda>\): "),
])
def test_runtime_functions_name_themselves(nr, call, exc, match):
    exc = getattr(nr, exc) if isinstance(exc, str) else exc  # npurt's own classes: via the fixture
    with pytest.raises(exc, match=match):
        call(nr)
    usable(nr)


# ---- device data: indices the host does not read, checked by the kernel (kernels/common/kernel_check.h) ----

def i64(nr, values, shape=None):
    return nr.asarray(np.asarray(values, dtype=np.int64).reshape(shape or (len(values),)))


@pytest.mark.parametrize("call, reason", [
    (lambda nr, x: nr.ops.gather(x, i64(nr, [0, 1, 2])),
     "index 2 (flat position 2) is out of range for axis 0 of size 2"),
    (lambda nr, x: nr.ops.gather(x, i64(nr, [1, -1])),
     "index -1 (flat position 1) is out of range for axis 0 of size 2"),
    (lambda nr, x: nr.ops.gather(x, i64(nr, [2, 0, 7]), axis=1),
     "index 7 (flat position 2) is out of range for axis 1 of size 3"),
    (lambda nr, x: nr.ops.gather(x, i64(nr, [0, 1, 0, 5, 0, 1], (2, 3)), axis=1, mode="along"),
     "index 5 (flat position 3) is out of range for axis 1 of size 3"),
])
def test_gather_names_the_out_of_range_index(nr, call, reason):
    x = f32(nr, (2, 3))
    expected = r"npurt\.ops\.gather: ErrorParam: argument 'indices': " + re.escape(reason)
    with pytest.raises(nr.KernelFault, match=expected):
        call(nr, x).numpy()  # raised where the stream synchronizes
    usable(nr)
    host = np.arange(6, dtype=np.float32).reshape(2, 3)  # the same calls with valid indices
    np.testing.assert_array_equal(nr.ops.gather(x, i64(nr, [1, 0])).numpy(), host[[1, 0]])
    np.testing.assert_array_equal(nr.ops.gather(x, i64(nr, [2, 0]), axis=1).numpy(), host[:, [2, 0]])
    along = np.array([[0, 1, 0], [2, 2, 1]])
    np.testing.assert_array_equal(nr.ops.gather(x, i64(nr, along.ravel(), (2, 3)), axis=1, mode="along").numpy(),
                                  np.take_along_axis(host, along, axis=1))


def test_scatter_names_the_out_of_range_index(nr):
    y = f32(nr, (4,))
    with pytest.raises(nr.KernelFault, match=r"npurt\.ops\.scatter: ErrorParam: argument 'indices': index 4 "
                                             r"\(flat position 1\) is out of range for axis 0 of size 4"):
        nr.ops.scatter(i64(nr, [0, 4]), f32(nr, (2,)), shape=[4], out=y)
        nr.synchronize()
    usable(nr)
    y = f32(nr, (4,))
    nr.ops.scatter(i64(nr, [3, 0]), nr.asarray(np.array([7, 8], np.float32)), shape=[4], out=y)
    np.testing.assert_array_equal(y.numpy(), np.array([8, 1, 2, 7], np.float32))


def test_round_size_still_rounds(nr):
    assert nr.memory.round_size(100) >= 100
    assert nr.memory.round_size(0) >= 0
