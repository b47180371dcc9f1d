"""Streams (current stream, context manager, synchronize/query), events
(record, wait, elapsed time) and nr.synchronize, from one and many threads."""
import threading

import numpy as np
import pytest

BIG = 1 << 24  # 16 Mi float32 = 64 MiB: long enough for work to be observably pending


def test_context_manager_sets_and_restores_current(nr):
    default = nr.current_stream()
    assert default.is_default and default == nr.default_stream()
    a, b = nr.Stream(), nr.Stream()
    assert a != b and a.id != b.id and not a.is_default
    with a:
        assert nr.current_stream() == a
        assert nr.empty(3).stream == a
        with b:
            assert nr.current_stream() == b
        assert nr.current_stream() == a
    assert nr.current_stream() == default


def test_context_manager_restores_on_exception(nr):
    s = nr.Stream()
    with pytest.raises(KeyError):
        with s:
            raise KeyError("x")
    assert nr.current_stream().is_default


def test_current_stream_is_per_thread(nr):
    s = nr.Stream()
    seen = {}

    def worker():
        seen["before"] = nr.current_stream()
        with s:
            seen["inside"] = nr.current_stream()

    with nr.Stream():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert seen["before"].is_default and seen["inside"] == s


def test_synchronize_and_query(nr):
    s = nr.Stream()
    x = nr.asarray(np.ones(BIG, np.float32), stream=s)
    y = x.copy()  # queued on s behind the upload
    s.synchronize()
    assert s.query() is True
    assert y.numpy()[-1] == 1.0


def test_event_orders_work_across_streams(nr):
    producer, consumer = nr.Stream(), nr.Stream()
    host = np.arange(BIG, dtype=np.float32)
    with producer:
        x = nr.asarray(host)
        y = x.copy()
    ev = producer.record_event()
    consumer.wait_event(ev)
    with consumer:
        # reading y on consumer after the wait must see the producer's copy
        back = nr.asarray(y, copy=True, stream=consumer)
    assert np.array_equal(back.numpy(), host)
    ev.synchronize()
    assert ev.query()


def test_event_elapsed_time(nr):
    s = nr.Stream()
    start, end = nr.Event(), nr.Event()
    start.record(s)
    x = nr.asarray(np.ones(BIG, np.float32), stream=s)
    for _ in range(3):
        x = x.copy()
    end.record(s)
    end.synchronize()
    ms = start.elapsed_time(end)
    assert 0.0 < ms < 60_000


def test_event_defaults(nr):
    e = nr.Event()
    assert e.query() is True  # never recorded
    e.record()  # on the current stream
    e.synchronize()
    assert e.device == nr.current_device() and e.enable_timing


def test_record_event_into_given_event(nr):
    s = nr.Stream()
    e = nr.Event()
    assert s.record_event(e) is not None
    e.synchronize()
    assert e.query()


def test_device_synchronize_waits_for_every_stream(nr):
    streams = [nr.Stream() for _ in range(3)]
    copies = []
    for s in streams:
        with s:
            copies.append(nr.asarray(np.full(BIG // 4, 2.0, np.float32)).copy())
    nr.synchronize()
    assert all(s.query() for s in streams)
    assert all(c.numpy()[0] == 2.0 for c in copies)


def test_streams_from_many_threads(nr):
    errors = []

    def worker(seed):
        try:
            rng = np.random.default_rng(seed)
            s = nr.Stream()
            with s:
                for _ in range(20):
                    host = rng.standard_normal(int(rng.integers(1, 50_000))).astype(np.float32)
                    x = nr.asarray(host).copy()
                    if not np.array_equal(x.numpy(), host):
                        errors.append(f"thread {seed}: wrong data")
            s.synchronize()
        except Exception as e:  # collected: pytest does not see thread exceptions
            errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_stream_repr_and_device(nr, second_device):
    s = nr.Stream(second_device)
    assert s.device == second_device and "sim:1" in repr(s)
    assert nr.current_stream(second_device).device == second_device
    x = nr.zeros(5, device=second_device)
    assert x.device == second_device and x.stream == nr.current_stream(second_device)
    nr.synchronize(second_device)
