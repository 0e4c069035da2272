"""The import rules of DESIGN.md, checked in fresh interpreters.

Each package may import only what its row of the packages table allows; the
check imports every module of the package in a new interpreter and looks at
which top-level modules got loaded.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ALLOWED = {
    "referee": set(),
    "vision": {"numpy", "cv2", "referee"},
    "calibration": {"numpy", "cv2", "vision", "referee"},
    "firmware_bridge": {"serial"},
    "hardware": {"firmware_bridge", "referee", "serial"},
}
# Modules of firmware_bridge that may open a serial port; every other module
# of that package must work without pyserial.
SERIAL_MODULES = {"firmware_bridge.link", "firmware_bridge.bench"}

PROBE = """
import importlib, json, sys
before = set(sys.modules)
for name in sys.argv[1:]:
    importlib.import_module(name)
loaded = {m.split('.')[0] for m in set(sys.modules) - before}
print(json.dumps(sorted(loaded - set(sys.stdlib_module_names))))
"""


def modules_of(package: str) -> list[str]:
    """Every module of a package, by walking its folder."""
    names = [package]
    for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
        names.append(info.name)
    return names


def loaded_by(modules: list[str]) -> set[str]:
    """Third-party top-level modules loaded by importing ``modules`` afresh."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout)) - {"_distutils_hack"}


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_design_allows(package: str) -> None:
    loaded = loaded_by(modules_of(package)) - {package}
    allowed = ALLOWED[package]
    # numpy and cv2 pull in their own helpers; judge by our packages and the big names
    ours = {"referee", "vision", "hardware", "firmware_bridge", "calibration", "companion"}
    watched = ours | {"numpy", "cv2", "serial", "gpiozero", "flask", "werkzeug"}
    assert (loaded & watched) <= allowed, f"{package} imports {sorted((loaded & watched) - allowed)}"
    if package == "referee":
        assert loaded == set(), f"referee must use the standard library only, loaded {sorted(loaded)}"


def test_gpiozero_is_imported_only_when_a_gpio_driver_is_chosen() -> None:
    for module in modules_of("hardware"):
        assert "gpiozero" not in loaded_by([module]), f"{module} imports gpiozero at import time"


def test_serial_is_imported_only_by_the_link() -> None:
    for module in modules_of("firmware_bridge"):
        if module in SERIAL_MODULES:
            continue
        assert "serial" not in loaded_by([module]), f"{module} imports pyserial; only the link may"


def test_the_command_line_starts_without_heavy_libraries() -> None:
    probe = (
        "import sys; from companion.cli import build_parser; build_parser(); "
        "print(sorted({'cv2', 'numpy', 'flask', 'serial', 'gpiozero'} & set(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", f"cascade --help loads {result.stdout.strip()}: import them inside run()"
