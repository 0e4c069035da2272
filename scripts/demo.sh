#!/usr/bin/env bash
# Set up the virtual environment in .venv (first run only) and run the demo.
# Extra arguments go to `cascade demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/cascade ]; then
    python3 -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e .
fi
exec .venv/bin/cascade demo "$@"
