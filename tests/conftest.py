"""Shared pytest setup for the Python tests (tests/python/...).

Runs before any test module imports npurt, so the environment below shapes
the runtime for the whole session:
  - NPURT_SIM_DEVICES=2: two simulated devices, so tests can pass a stream or
    array of another device and check the error (an explicit value is kept).

tools/test.sh runs the suite with pytest-xdist (one worker process per core, --dist
loadgroup): a test must not depend on another test having run before it in the same
process, and must write only under tmp_path (or a NPURT_CACHE_DIR there). Process-wide
counters (kernel-library loads, copy elision, pool statistics) are per worker, so read
them as deltas within one test. Tests that must run in one process together say
@pytest.mark.xdist_group("name") (registered below so plain pytest accepts it too).
"""
import gc
import os

os.environ.setdefault("NPURT_SIM_DEVICES", "2")

import pytest  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "xdist_group(name): run in the same pytest-xdist worker as the "
                            "other tests of the group (tools/test.sh uses --dist loadgroup)")


@pytest.fixture
def nr():
    """The npurt module, with the device drained and garbage collected after the test."""
    import npurt

    yield npurt
    npurt.synchronize()
    # The collection frees what the test left in reference cycles (arrays in tracebacks hold
    # device memory), so the next test starts from a drained pool. gc.freeze() then moves the
    # survivors to the permanent generation: the next full collection (this teardown's, a
    # test's own gc.collect(), or an automatic one) walks only what was allocated since, not
    # the whole heap a worker builds over thousands of tests (0.1 CPU-s per collection after
    # 4k tests, 10-21 s per robustness test in a loaded whole-suite run; docs/performance.md
    # "Test time per test (wave 13)"). Cycles through frozen objects are kept until the
    # session ends (pytest_unconfigure unfreezes and collects).
    gc.collect()
    gc.freeze()


@pytest.fixture
def second_device(nr):
    """sim:1 (skips when NPURT_SIM_DEVICES was set to 1 by the caller)."""
    if nr.device_count() < 2:
        pytest.skip("needs NPURT_SIM_DEVICES >= 2")
    return nr.Device("sim:1")


# Why the two hooks below: collected items keep their parametrize values (npurt dtypes, arrays)
# and the terminal reporter keeps deselected items; with hypothesis in the session these outlive
# nanobind's leak check at interpreter exit, which then reports "leaked instances" (npurt.dtype)
# although nothing leaked. Releasing them once the session is over ends the report.
@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    session.items.clear()


def pytest_unconfigure(config):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.stats.clear()  # the summary is printed by now
    gc.unfreeze()  # the nr fixture froze survivors; they must be collectable before the leak check
    gc.collect()
