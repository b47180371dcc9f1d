"""The namespace gaps closed with the indexing work: constants, newaxis,
broadcast_shapes, x.to_device, __array_namespace_info__ capabilities, and
the new names being exported by npurt."""
import math

import numpy as np
import pytest

import npurt as nr

NEW_NAMES = ["arange", "eye", "linspace", "meshgrid", "tril", "triu", "cumulative_sum", "cumulative_prod", "diff",
             "nonzero", "take", "take_along_axis", "broadcast_shapes", "e", "inf", "nan", "pi", "newaxis"]


@pytest.mark.parametrize("name", NEW_NAMES)
def test_exported(name):
    assert hasattr(nr, name)
    assert name in nr.array_api.__all__


def test_constants():
    assert nr.e == math.e and nr.pi == math.pi and nr.inf == math.inf and math.isnan(nr.nan)
    assert all(isinstance(v, float) for v in (nr.e, nr.pi, nr.inf, nr.nan))
    assert nr.newaxis is None
    x = nr.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert x[nr.newaxis, :, nr.newaxis].shape == (1, 2, 1, 3)


@pytest.mark.parametrize("shapes", [[(2, 3), (3,)], [(1,), (4, 1), (2, 1, 5)], [()], [(0, 1), (1, 7)], [(5,)]])
def test_broadcast_shapes(shapes):
    assert nr.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)


def test_broadcast_shapes_error():
    with pytest.raises(ValueError, match="npurt.broadcast_shapes"):
        nr.broadcast_shapes((2, 3), (4,))


def test_to_device_same_device_returns_self():
    x = nr.asarray(np.arange(4, dtype=np.float32))
    assert x.to_device(x.device) is x
    assert x.to_device(nr.current_device(), stream=None) is x
    with pytest.raises(TypeError, match="npurt.ndarray.to_device: argument 'device'"):
        x.to_device("cpu")


def test_info_capabilities():
    caps = nr.__array_namespace_info__().capabilities()
    assert caps["boolean indexing"] is True
    assert caps["data-dependent shapes"] is True
