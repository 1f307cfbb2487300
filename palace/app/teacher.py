"""The instructor's token: only a page whose link carries it gets the teacher's controls.

``make app`` (``palace.app.server``) reads ``PALACE_INSTRUCTOR_TOKEN`` or makes a random one,
prints the instructor link ``…/app.ipynb?instructor=TOKEN`` and hands the token to the
kernels it starts through the same environment variable. A page opened with it gets "All
cards", scenario authoring, pushing a position and the class dashboard; a page without it,
or with a wrong one, is a student's. The comparison takes the same time whatever is
typed (`hmac.compare_digest`), and no link the app writes ever holds the token.

>>> is_instructor("s3cret", "s3cret"), is_instructor("s3cre", "s3cret"), is_instructor("", "")
(True, False, False)
"""

from __future__ import annotations

import hmac
import os
import secrets

ENV_TOKEN = "PALACE_INSTRUCTOR_TOKEN"
QUERY_KEY = "instructor"
MIN_LENGTH = 8  # a token shorter than this is refused (a guessable one is no lock)


def new_token() -> str:
    """A fresh random token (about 128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def configured_token() -> str | None:
    """The token of this server (``PALACE_INSTRUCTOR_TOKEN``), None when unset or too short."""
    token = os.environ.get(ENV_TOKEN, "").strip()
    return token if len(token) >= MIN_LENGTH else None


def is_instructor(given: str | None, token: str | None = None) -> bool:
    """Does the link's `given` token match the server's (`token`, default from the env)?
    No token configured, or none given, is never a match."""
    expected = configured_token() if token is None else token
    if not expected or not given:
        return False
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def served_by_voila() -> bool:
    """True when this kernel runs a page Voilà serves (it sets SERVER_SOFTWARE=voila/...)."""
    return os.environ.get("SERVER_SOFTWARE", "").startswith("voila")


def page_is_teachers(given: str | None) -> bool:
    """Is a page whose link carries `given` the teacher's? Under Voilà only with the right
    token; a notebook run in one's own Jupyter (no Voilà, no token set) is the teacher's."""
    if is_instructor(given):
        return True
    return not served_by_voila() and configured_token() is None


def instructor_query(token: str) -> str:
    """The query string of the instructor's link."""
    return f"{QUERY_KEY}={token}"
