"""Shared fixtures: the labelled data beside the repository, artefact folders."""

from __future__ import annotations

from pathlib import Path

import pytest

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
