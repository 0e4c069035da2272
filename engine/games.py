"""The engine's model of each game, by rule set."""

from __future__ import annotations

from functools import cache

from engine.cascade import CascadeModel
from engine.cascades import CascadesModel
from engine.errors import EngineError
from engine.kaskade import KaskadeModel
from engine.model import Model
from referee.cascade import CascadeRules
from referee.cascades import CascadesRules
from referee.kaskade import KaskadeRules
from referee.rules import Rules


class UnknownGameError(EngineError, ValueError):
    """The engine has no model for this rule set."""


@cache
def model_of(rules: Rules) -> Model:
    """The engine's model of ``rules`` (one per rule set, kept)."""
    if isinstance(rules, CascadeRules):
        return CascadeModel(rules)
    if isinstance(rules, CascadesRules):
        return CascadesModel(rules)
    if isinstance(rules, KaskadeRules):
        return KaskadeModel(rules)
    raise UnknownGameError(f"the engine does not play {rules.game or type(rules).__name__}")
