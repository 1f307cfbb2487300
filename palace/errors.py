"""Errors raised by the engine: every message names the rule clause or field at fault."""

from __future__ import annotations


class PalaceError(Exception):
    """Base class of every error the engine raises on bad input or an illegal action."""


class CardError(PalaceError, ValueError):
    """A card string, card index or card list is malformed (R1.2)."""


class RulesError(PalaceError, ValueError):
    """A `Rules` field has a bad value; the message names the field."""


class IllegalActionError(PalaceError):
    """An action that is not legal now; the message names the rule that forbids it."""


class DeckError(PalaceError, ValueError):
    """A scripted deck is malformed: duplicate, unknown or missing cards (R1.2)."""


class StateError(PalaceError, ValueError):
    """A serialised game or scenario payload is malformed; the message names the field."""
