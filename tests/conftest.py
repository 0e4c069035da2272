"""Shared fixtures: the labelled data beside the repository, artefact folders; the property tests' profile.

The property tests draw their examples from a seed fixed by each test's name (profile ``repeatable``), so a
run fails or passes the same on every machine and every try; ``HYPOTHESIS_PROFILE=explore`` draws fresh
examples each run, to search further.

Run in parallel (``pytest -n``, as ``scripts/test.sh`` does), the tests marked ``slow`` are handed out first,
so that none of the long ones starts last and keeps the whole run waiting for it alone.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a parallel worker, put the ``slow`` tests first (every worker sorts alike, as pytest-xdist needs)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: otherwise in collection order


ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; the test fails, saying what is missing, without it."""
    data = SHARED / "data"
    if not data.is_dir():
        pytest.fail(
            f"the labelled data folder {data} is missing: put the project's shared/ "
            "folder beside the repository (../shared/data/real/...)"
        )
    return data


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """A folder for test artefacts (screenshots, logs) kept after the run."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
