"""Array API dtype functions: the promotion table (written out from the
standard, not taken from numpy), Python-scalar rules, can_cast, finfo/iinfo
(checked against numpy's), isdtype, namespace metadata."""
import numpy as np
import pytest

import npurt as nr

I8, I16, I32, I64 = nr.int8, nr.int16, nr.int32, nr.int64
U8, U16, U32, U64 = nr.uint8, nr.uint16, nr.uint32, nr.uint64
F16, F32, F64 = nr.float16, nr.float32, nr.float64

# The standard's table (2024.12, "Type Promotion Rules"), both argument orders.
STANDARD = [
    (I8, I16, I16), (I8, I32, I32), (I8, I64, I64), (I16, I32, I32), (I16, I64, I64), (I32, I64, I64),
    (U8, U16, U16), (U8, U32, U32), (U8, U64, U64), (U16, U32, U32), (U16, U64, U64), (U32, U64, U64),
    (I8, U8, I16), (I8, U16, I32), (I8, U32, I64), (I16, U8, I16), (I16, U16, I32), (I16, U32, I64),
    (I32, U8, I32), (I32, U16, I32), (I32, U32, I64), (I64, U8, I64), (I64, U16, I64), (I64, U32, I64),
    (F16, F32, F32), (F16, F64, F64), (F32, F64, F64), (nr.bool, nr.bool, nr.bool),
    (nr.complex64, nr.complex128, nr.complex128), (F32, nr.complex64, nr.complex64),
    (F64, nr.complex64, nr.complex128),
]


@pytest.mark.parametrize("a,b,r", STANDARD)
def test_promotion_table(a, b, r):
    assert nr.result_type(a, b) == r
    assert nr.result_type(b, a) == r
    assert nr.can_cast(a, r) and nr.can_cast(b, r)


def test_no_common_type_raises():
    with pytest.raises(TypeError, match="npurt.result_type: dtypes uint64 and int8 have no common type"):
        nr.result_type(U64, I8)


def test_mixed_kinds_follow_numpy():
    for a in (nr.bool, I8, U8, I16, U16, I32, F16, F32):
        for b in (F16, F32, nr.bool):
            assert nr.result_type(a, b).name == np.result_type(a.name, b.name).name, (a, b)
    assert nr.result_type(nr.bfloat16, F16) == F32


def test_python_scalars():
    assert nr.result_type(I8, 1) == I8
    assert nr.result_type(F16, 1.5) == F16
    assert nr.result_type(I32, 1.5) == F32  # the default float dtype
    assert nr.result_type(nr.bool, True) == nr.bool
    assert nr.result_type(nr.bool, 3) == I64
    assert nr.result_type(U8, True) == U8


def test_can_cast():
    assert nr.can_cast(I8, I16) and not nr.can_cast(I16, I8)
    assert not nr.can_cast(F32, I32) and not nr.can_cast(F64, F32)
    assert nr.can_cast(nr.bool, I8)


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_matches_numpy(name):
    f, g = nr.finfo(getattr(nr, name)), np.finfo(name)
    assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == (g.bits, g.eps, g.max, g.min, g.smallest_normal)
    assert f.dtype == getattr(nr, name)


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_iinfo_matches_numpy(name):
    i, g = nr.iinfo(getattr(nr, name)), np.iinfo(name)
    assert (i.bits, i.max, i.min) == (g.bits, g.max, g.min)


def test_finfo_iinfo_errors():
    with pytest.raises(TypeError, match="npurt.finfo: argument 'type': int32 is not a floating-point dtype"):
        nr.finfo(I32)
    with pytest.raises(TypeError, match="npurt.iinfo: argument 'type': float32 is not an integer dtype"):
        nr.iinfo(F32)


def test_isdtype():
    assert nr.isdtype(I8, "signed integer") and not nr.isdtype(U8, "signed integer")
    assert nr.isdtype(U8, "integral") and nr.isdtype(F16, "real floating")
    assert nr.isdtype(F32, ("bool", "numeric")) and not nr.isdtype(nr.bool, "numeric")
    assert nr.isdtype(F32, F32) and not nr.isdtype(F32, F64)
    with pytest.raises(ValueError, match="npurt.isdtype: argument 'kind': unknown kind 'floaty'"):
        nr.isdtype(F32, "floaty")


def test_namespace_metadata():
    assert nr.__array_api_version__ == "2024.12"
    x = nr.asarray(np.ones(3, np.float32))
    assert x.__array_namespace__() is nr
    info = nr.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == F32
    assert I8 in info.dtypes(kind="signed integer").values()
    assert F32 not in info.dtypes(kind="integral").values()
    assert info.default_device() in info.devices()
