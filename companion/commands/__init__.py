"""Sub-commands of ``cascade``: one module each, found automatically.

Each module defines ``register(subparsers)``; see :mod:`companion.cli`.
"""
