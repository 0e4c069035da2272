#!/usr/bin/env bash
# Install everything the tests need (system packages, a virtual environment
# with the project and its test tools) and run all checks: ruff, mypy, pytest.
# pytest runs the tests in parallel (pytest-xdist), one worker per core up to
# PYTEST_WORKERS (default 4); extra arguments go to pytest ("-n 0": one process).
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(
    gcc make pkg-config                                    # the simavr harness
    gcc-avr avr-libc binutils-avr                          # the firmware
    simavr libsimavr-dev libsimavrparts1 libelf-dev        # the firmware in simulation
    chromium chromium-driver                               # the browser tests
    mosquitto                                              # the MQTT broker of the hub's tests
)
missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "Installing system packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'

echo "== ruff"
.venv/bin/ruff check .
echo "== mypy"
.venv/bin/mypy referee engine vision hardware firmware_bridge calibration companion hub
echo "== pytest"
.venv/bin/python -m pytest -n auto --maxprocesses "${PYTEST_WORKERS:-4}" --dist worksteal "$@"
