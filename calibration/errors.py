"""Errors of calibration: each says which field or input is wrong and what to do."""

from __future__ import annotations


class ProfileError(ValueError):
    """A calibration profile is missing, malformed or does not fit; the message names the field."""
