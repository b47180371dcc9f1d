"""Demo section: streams, cross-stream events and timing."""
import numpy as np

import npurt as nr

TITLE = "Streams and events"


def run():
    producer, consumer = nr.Stream(), nr.Stream()
    start, done = nr.Event(), nr.Event()
    host = np.arange(1 << 22, dtype=np.float32)  # 16 MiB
    start.record(producer)
    with producer:  # nr.current_stream() is `producer` inside the block
        assert nr.current_stream() == producer
        x = nr.asarray(host)
        y = x.copy()
    done.record(producer)
    consumer.wait_event(done)  # consumer's later work starts after the copy
    with consumer:
        z = nr.zeros(4)
    consumer.synchronize()
    done.synchronize()
    if not np.array_equal(y.numpy(), host):
        raise AssertionError("device-to-device copy on the producer stream lost data")
    ms = start.elapsed_time(done)
    print(f"{producer!r}: 16 MiB upload + device copy took {ms:.3f} ms between events "
          f"({2 * host.nbytes / (ms * 1e-3) / 1e9:.2f} GB/s moved)")
    print(f"{consumer!r} waited on the event; query() -> {consumer.query()}, z = {z.numpy()}")
    nr.synchronize()
    print(f"nr.synchronize() waited for every stream of {nr.current_device()}")
