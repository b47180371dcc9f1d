"""nr.memory: statistics, empty_cache, limit, OOM error and recovery."""
import gc

import numpy as np
import pytest


def drained(nr):
    gc.collect()
    nr.synchronize()


def round_size(n):
    return max(512, (n + 32 + 511) // 512 * 512)


def test_stats_have_pytorch_keys(nr):
    s = nr.memory.stats()
    for key in ("allocated_bytes.all.current", "allocated_bytes.all.peak", "reserved_bytes.all.current",
                "num_alloc_retries", "num_ooms"):
        assert key in s and isinstance(s[key], int)


@pytest.mark.parametrize("n", [1, 480, 481, 1000, 1 << 20, 3 << 20])
def test_rounding_rule(nr, n):
    assert nr.memory.round_size(n) == round_size(n)


@pytest.mark.parametrize("n", [100, 5000, 3 << 20])
def test_allocation_moves_stats(nr, n):
    drained(nr)
    before = nr.memory.stats()
    x = nr.empty(n, nr.uint8)
    during = nr.memory.stats()
    assert during["allocated_bytes.all.current"] - before["allocated_bytes.all.current"] == round_size(n)
    assert during["reserved_bytes.all.current"] >= during["allocated_bytes.all.current"]
    assert nr.memory.memory_allocated() == during["allocated_bytes.all.current"]
    del x
    drained(nr)
    assert nr.memory.memory_allocated() == before["allocated_bytes.all.current"]


def test_empty_cache_returns_segments(nr):
    drained(nr)
    x = nr.empty(30 << 20, nr.uint8)
    reserved_with = nr.memory.memory_reserved()
    del x
    drained(nr)
    assert nr.memory.memory_reserved() == reserved_with  # cached, not returned
    nr.memory.empty_cache()
    assert nr.memory.memory_reserved() <= reserved_with - (30 << 20)


def test_limit_and_out_of_memory(nr):
    drained(nr)
    nr.memory.empty_cache()
    ooms = nr.memory.stats()["num_ooms"]
    nr.memory.set_limit(64 << 20)
    try:
        assert nr.memory.get_limit() == 64 << 20
        small = nr.asarray(np.arange(1000))  # fits
        with pytest.raises(nr.OutOfMemoryError) as info:
            nr.empty(256 << 20, nr.uint8)
        msg = str(info.value)
        assert "limit" in msg.lower() and info.value.code == "OUT_OF_MEMORY"
        assert isinstance(info.value, MemoryError)
        assert nr.memory.stats()["num_ooms"] == ooms + 1
        assert np.array_equal(small.numpy(), np.arange(1000))  # live data intact
    finally:
        nr.memory.set_limit(None)
    assert nr.memory.get_limit() == 0
    big = nr.zeros(256 << 20, nr.uint8)  # usable again once the limit is gone
    assert big.numpy()[::1 << 20].sum() == 0


def test_limit_spellings(nr):
    try:
        nr.memory.set_limit("1G")
        assert nr.memory.get_limit() == 1 << 30
        nr.memory.set_limit("50%")
        assert nr.memory.get_limit() == nr.current_device().total_memory // 2
    finally:
        nr.memory.set_limit(0)


@pytest.mark.parametrize("bad", [-1, "lots", 1.5, [1]])
def test_bad_limits(nr, bad):
    with pytest.raises(nr.InvalidArgumentError, match="npurt.memory.set_limit: argument 'limit'"):
        nr.memory.set_limit(bad)
    assert nr.memory.get_limit() == 0


def test_peak_and_reset(nr):
    drained(nr)
    x = nr.empty(8 << 20, nr.uint8)
    del x
    drained(nr)
    assert nr.memory.stats()["allocated_bytes.all.peak"] >= 8 << 20
    nr.memory.reset_peak_stats()
    s = nr.memory.stats()
    assert s["allocated_bytes.all.peak"] == s["allocated_bytes.all.current"]


def test_per_device_pools(nr, second_device):
    drained(nr)
    before0 = nr.memory.memory_allocated("sim:0")
    x = nr.empty(1 << 20, nr.uint8, device=second_device)
    assert nr.memory.memory_allocated(second_device) >= 1 << 20
    assert nr.memory.memory_allocated("sim:0") == before0
    del x
