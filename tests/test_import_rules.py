"""The import rules of docs/architecture.md ("Import rules").

Each package may import only what its row of the packages table allows; the
check imports every module of the package in a new interpreter and looks at
which top-level modules got loaded. No module may reach itself again through
the modules it imports (an import circle), counting imports made inside
functions, which only hide a circle: the check reads every module's source.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ALLOWED = {
    "referee": set(),
    "engine": {"referee"},
    "vision": {"numpy", "cv2", "referee"},
    "calibration": {"numpy", "cv2", "vision", "referee"},
    "firmware_bridge": {"serial"},
    "hardware": {"firmware_bridge", "referee", "serial"},
    "hub": {"companion", "referee", "flask", "werkzeug", "paho"},
}
# The one module of the project that may talk MQTT (paho-mqtt), imported only when a broker is used.
MQTT_MODULES = {"companion.mqtt_link"}
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
    ours = {"referee", "engine", "vision", "hardware", "firmware_bridge", "calibration", "companion", "hub"}
    watched = ours | {"numpy", "cv2", "serial", "gpiozero", "flask", "werkzeug", "paho"}
    assert (loaded & watched) <= allowed, f"{package} imports {sorted((loaded & watched) - allowed)}"
    if package == "referee":
        assert loaded == set(), f"referee must use the standard library only, loaded {sorted(loaded)}"
    if package == "engine":
        assert loaded <= {"referee"}, (
            f"the engine must use the standard library and referee only, loaded {sorted(loaded)}"
        )


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
        "print(sorted({'cv2', 'numpy', 'flask', 'serial', 'gpiozero', 'paho'} & set(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", f"cascade --help loads {result.stdout.strip()}: import them inside run()"


PACKAGES = ("referee", "engine", "vision", "hardware", "firmware_bridge", "calibration", "companion", "hub")


def project_modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules that module ``name`` imports anywhere in its source (a package's ``__init__``
    counts for ``from package import name`` only when ``name`` is no module of it)."""

    def known(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for target in targets:
            module = known(target)
            if module is not None and module != name:
                found.add(module)
    return found


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles


def test_no_module_imports_itself_through_others() -> None:
    modules = project_modules()
    graph = {name: imported_modules(name, path, modules) for name, path in modules.items()}
    circles = import_circles(graph)
    described = ["{" + ", ".join(group) + "}" for group in circles]
    assert not circles, f"modules that import each other round a circle: {described}; see docs/architecture.md"


def test_the_circle_check_finds_a_circle_hidden_in_a_function() -> None:
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def third_party_imports(path: Path) -> set[str]:
    """The top-level names a module imports anywhere in its source."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_companion_never_imports_the_hub_and_only_its_link_talks_mqtt() -> None:
    for name, path in project_modules().items():
        imported = third_party_imports(path)
        if name.split(".")[0] == "companion":
            assert "hub" not in imported, f"{name} imports the hub: the companion reaches it only by name (cascade hub)"
        if name not in MQTT_MODULES:
            assert "paho" not in imported, f"{name} imports paho-mqtt; only {sorted(MQTT_MODULES)} may"
