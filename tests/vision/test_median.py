"""The quick median gives numpy's, value for value."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from vision.median import median

values = st.floats(allow_nan=True, allow_infinity=False, width=32)
shapes = array_shapes(min_dims=1, max_dims=3, max_side=7)


@settings(max_examples=300, deadline=None)
@given(
    arrays(st.sampled_from([np.float32, np.float64]), shapes, elements=values),
    st.data(),
)
def test_the_median_is_numpys(x: np.ndarray, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    expected = np.median(x, axis=axis)
    got = median(x, axis=axis)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected, equal_nan=True)


def test_no_values_have_no_median() -> None:
    assert np.isnan(median(np.zeros((0, 3)), axis=0)).all()
    assert median(np.zeros((0, 3)), axis=0).shape == (3,)
