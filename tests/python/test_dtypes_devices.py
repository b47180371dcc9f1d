"""dtype objects (numpy interop, names, equality) and devices (listing,
identity, chip profiles)."""
import ml_dtypes
import numpy as np
import pytest

from dtype_cases import ALL_DTYPES, numpy_dtype


@pytest.mark.parametrize("name", ALL_DTYPES)
def test_dtype_objects(nr, name):
    d = getattr(nr, name)
    assert isinstance(d, nr.dtype) and d.name == name and str(d) == name and repr(d) == f"npurt.{name}"
    assert d.dtype == numpy_dtype(name) and d.itemsize == numpy_dtype(name).itemsize
    assert d == name and d == numpy_dtype(name) and d == nr.dtype(name) and hash(d) == hash(nr.dtype(name))
    assert np.zeros(2, dtype=d).dtype == numpy_dtype(name)  # usable where numpy wants a dtype
    assert nr.empty(1, d).dtype is d


def test_dtype_spellings(nr):
    assert nr.dtype(np.float32) == nr.float32
    assert nr.dtype(float) == nr.float64  # like numpy
    assert nr.dtype(ml_dtypes.bfloat16) is not None and nr.dtype(ml_dtypes.bfloat16) == nr.bfloat16
    assert nr.dtype("bf16") == nr.bfloat16 and nr.dtype("f2") == nr.float16 and nr.dtype("<i4") == nr.int32
    assert nr.float32 != nr.float16 and nr.float32 != "int8" and nr.float32 != object() and nr.float32 != None  # noqa: E711
    assert nr.bfloat16.kind == "f" and nr.uint16.kind == "u" and nr.bool.kind == "b" and nr.complex64.kind == "c"


def test_dtype_pickles(nr):
    import pickle

    assert pickle.loads(pickle.dumps(nr.bfloat16)) == nr.bfloat16


def test_devices_listing(nr):
    devs = nr.devices()
    assert len(devs) == nr.device_count() >= 1
    assert devs[0] == nr.Device("sim:0") == "sim:0" and str(devs[0]) == "sim:0"
    assert devs[0].type == "sim" and devs[0].index == 0 and devs[0].backend == "sim"
    assert nr.Device("sim", 0) == devs[0] and nr.Device() == devs[0]
    assert len({hash(d) for d in devs}) == len(devs)
    assert nr.current_device() == devs[0]


def test_device_profile(nr):
    d = nr.Device("sim:0")
    p = d.profile
    ref = nr.chip_profile(p.name)
    assert p.name == d.name == ref.name and p.vector_cores == ref.vector_cores and p.ub_bytes == ref.ub_bytes
    assert p.vector_cores > 0 and p.ub_usable_bytes <= p.ub_bytes and p.ub_align == 32
    assert d.total_memory > 0
    names = [q.name for q in nr.chip_profiles()]
    assert "Ascend910B3" in names and "Ascend310P3" in names
    with pytest.raises(nr.NotFoundError):
        nr.chip_profile("Ascend999")


def test_backends_report(nr):
    by_name = {b["name"]: b for b in nr.backends()}
    assert by_name["sim"]["available"] and by_name["sim"]["device_count"] == nr.device_count()
    if not by_name["ascend"]["available"]:
        assert by_name["ascend"]["reason"]  # says why


def test_set_device_is_per_thread(nr, second_device):
    import threading

    seen = []

    def worker():
        nr.set_device(second_device)
        seen.append((nr.current_device(), nr.empty(2).device))

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == [(second_device, second_device)]
    assert nr.current_device() == "sim:0"
