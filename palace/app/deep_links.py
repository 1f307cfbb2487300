"""Links to a moment: the app's query string read strictly (`parse_link`), written (`link_query`).

``…/app.ipynb?scenario=03-exclusion-turns-win-into-loss&event=23`` opens a scenario of
``data/scenarios/`` (its file name without ``.json``, or its id) at event 23 in Replay;
``?hand=hands/lesson.json&event=5`` a saved hand inside ``data/``; ``?seed=12&players=4&
variant=no-limit`` deals that hand in Play; ``&presenter=1`` opens presenter mode. Voilà
gives the page's query string to its kernel (``QUERY_STRING``; a pre-heated kernel waits
for it, `page_query`). A link with any bad value is refused whole: the app opens as
usual and says which value is wrong and why, never a traceback.

>>> parse_link("seed=12&players=4&variant=no-limit")
Link(seed=12, players=4, variant='no-limit')
>>> parse_link("seed=1.5&players=11").problems
('seed must be a whole number from -9,223,372,036,854,775,807 to 9,223,372,036,854,775,807; \
got “1.5”.', 'players must be a whole number from 2 to 10 (R1.1); got “11”.')
>>> link_query(scenario="03-exclusion-turns-win-into-loss", event=23)
'scenario=03-exclusion-turns-win-into-loss&event=23'
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from palace import strict
from palace.analysis.variants import VARIANTS
from palace.app.number_fields import FieldError, read_whole
from palace.scenarios import SCENARIO_DIR

log = logging.getLogger(__name__)

KEYS = ("scenario", "hand", "event", "seed", "players", "variant", "presenter")
PRIVATE = ("instructor", "student")  # read from the link, never written into one
IGNORED = ("template", "theme")  # Voilà's own query values
SCENARIO_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")
MAX_QUERY = 2000  # characters of a query string read at all
MAX_EVENT = 100_000
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


@dataclass(frozen=True)
class Link:
    """What a link asks for (None: not given), and why it was refused (`problems`)."""

    scenario: str | None = None  # a file name in data/scenarios, such as "03-x.json"
    hand: str | None = None  # a name inside data/, such as "hands/lesson.json"
    event: int | None = None
    seed: int | None = None
    players: int | None = None
    variant: str | None = None
    presenter: bool = False
    instructor: str | None = field(default=None, repr=False)  # never shown
    student: str | None = None
    problems: tuple[str, ...] = ()

    def __repr__(self) -> str:
        shown = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if f.repr and getattr(self, f.name) not in (None, False, ())
        ]
        return f"Link({', '.join(shown)})"

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def opens(self) -> str | None:
        """ "replay", "play" or None (the link opens nothing in particular)."""
        if self.scenario or self.hand:
            return "replay"
        if self.seed is not None or self.players is not None or self.variant is not None:
            return "play"
        return None


def scenario_files(folder: str | Path = SCENARIO_DIR) -> dict[str, str]:
    """Every name a link may use for a scenario (file stem and id) -> its file name."""
    names: dict[str, str] = {}
    for path in sorted(Path(folder).glob("*.json")):
        names[path.stem] = path.name
        stem_id = path.stem.split("-", 1)[1] if re.match(r"^\d+-", path.stem) else path.stem
        names.setdefault(stem_id, path.name)
    return names


def parse_link(query: str | None, *, scenario_dir: str | Path = SCENARIO_DIR) -> Link:
    """Read a page's query string; every bad value is named in `problems` (the link is then
    refused whole). Checks that a named scenario exists; a hand file and the event's range
    are checked when they are opened (`palace.app.teacher` … `LinkOpener`)."""
    query = query or ""
    problems: list[str] = []
    if len(query) > MAX_QUERY:
        return Link(
            problems=(f"the link is {len(query):,} characters long; at most {MAX_QUERY:,}",)
        )
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=False, max_num_fields=40)
    except ValueError as exc:
        return Link(problems=(f"the link cannot be read: {exc}",))
    seen: dict[str, str] = {}
    for key, value in pairs:
        if key in IGNORED:
            continue
        if key not in KEYS and key not in PRIVATE:
            problems.append(
                f"the link has an unknown field {strict.shown(key)}; known: {', '.join(KEYS)}"
            )
            continue
        if key in seen:
            problems.append(f"{key} is given twice in the link")
            continue
        seen[key] = value
    out: dict[str, Any] = {}  # each value checked below, field by field

    def whole(key: str, low: int, high: int, note: str = "") -> None:
        if key in seen:
            try:
                out[key] = read_whole(seen[key], label=key, low=low, high=high, note=note)
            except FieldError as exc:
                problems.append(str(exc))

    whole("event", 0, MAX_EVENT)
    whole("seed", -(strict.SEED_LIMIT - 1), strict.SEED_LIMIT - 1)
    whole("players", 2, 10, "(R1.1)")
    if "variant" in seen:
        if seen["variant"] in VARIANTS:
            out["variant"] = seen["variant"]
        else:
            problems.append(
                f"variant {strict.shown(seen['variant'])} is not a rule variant; known: "
                + ", ".join(VARIANTS)
            )
    if "presenter" in seen:
        flag = seen["presenter"].strip().lower()
        if flag in TRUE or flag == "":
            out["presenter"] = True
        elif flag not in FALSE:
            problems.append(f"presenter must be 1 or 0, got {strict.shown(seen['presenter'])}")
    if "scenario" in seen:
        name = seen["scenario"].strip().removesuffix(".json")
        files = scenario_files(scenario_dir)
        if not SCENARIO_NAME.match(name):
            problems.append(
                f"scenario {strict.shown(seen['scenario'])} is not a scenario name (lower-case "
                "letters, digits and '-', such as 03-exclusion-turns-win-into-loss)"
            )
        elif name not in files:
            problems.append(
                f"there is no scenario {strict.shown(name)} in data/scenarios; known: "
                + ", ".join(sorted({f.removesuffix(".json") for f in files.values()}))
            )
        else:
            out["scenario"] = files[name]
    if "hand" in seen:
        hand = seen["hand"].strip()
        if not hand:
            problems.append("hand must name a saved hand inside data/, such as hands/x.json")
        else:
            out["hand"] = hand
    if "scenario" in seen and "hand" in seen:
        problems.append("give scenario= or hand=, not both")
    if ("scenario" in seen or "hand" in seen) and ({"seed", "players", "variant"} & seen.keys()):
        problems.append("seed, players and variant deal a new hand: not with scenario= or hand=")
    if "event" in seen and not ({"scenario", "hand"} & seen.keys()):
        problems.append("event needs the hand it is in: scenario= or hand=")
    instructor = seen.get("instructor")
    student = seen.get("student")
    if problems:
        return Link(instructor=instructor, student=student, problems=tuple(problems))
    return Link(instructor=instructor, student=student, **out)


def link_query(
    *,
    scenario: str | None = None,
    hand: str | None = None,
    event: int | None = None,
    seed: int | None = None,
    players: int | None = None,
    variant: str | None = None,
    presenter: bool = False,
) -> str:
    """The query string of a link to a moment (never the instructor's token)."""
    pairs: list[tuple[str, str]] = []
    if scenario is not None:
        pairs.append(("scenario", scenario.removesuffix(".json")))
    if hand is not None:
        pairs.append(("hand", hand))
    if event is not None:
        pairs.append(("event", str(event)))
    for key, value in (("seed", seed), ("players", players), ("variant", variant)):
        if value is not None:
            pairs.append((key, str(value)))
    if presenter:
        pairs.append(("presenter", "1"))
    return urlencode(pairs, safe="/")


# ---------------------------------------------------------------------------- the page
def page_query() -> str:
    """This page's query string. In a pre-heated kernel (``VOILA_PREHEAT``) this waits
    until a visitor takes the kernel (as Voilà's `get_query_string`); outside Voilà: ""."""
    if os.environ.get("VOILA_PREHEAT", "False") != "False":
        wait_for_visitor()
    return os.environ.get("QUERY_STRING", "")


def wait_for_visitor(timeout: float = 5.0) -> None:
    """Wait until a visitor takes this pre-heated kernel; their request's details (the
    query string, the page's address) then go into ``os.environ``.

    Voilà's own `voila.utils.wait_for_request`, without importing Voilà's server into every
    page's kernel (that import alone is about 40 MB and a second of CPU a page, issue 26):
    the same socket (``voila/query/<kernel id>``, Voilà's ``RequestInfoSocketHandler``)
    and the same message. `timeout` bounds the connection, not the wait for the visitor.
    """
    import asyncio
    import json
    import threading

    import websockets

    env = os.environ
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    url = (
        f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
        f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env.get('VOILA_KERNEL_ID')}"
    )
    got: list[str | bytes] = []

    async def listen() -> None:
        async with websockets.connect(url, open_timeout=timeout) as socket:
            got.append(await socket.recv())

    def run() -> None:
        try:
            asyncio.run(listen())
        except (TimeoutError, OSError) as exc:
            log.warning("palace app: no visitor's details from %s (%s)", url, exc)

    thread = threading.Thread(target=run, name="palace-visitor")  # the kernel has a loop
    thread.start()
    thread.join()
    if got:
        for key, value in json.loads(got[0]).items():
            env[key] = value


def page_base() -> str | None:
    """The app page's own address without its query (``http://host:port/voila/render/
    app.ipynb``), as the visitor's browser asked for it; None outside Voilà."""
    host = os.environ.get("SERVER_NAME")
    path = os.environ.get("SCRIPT_NAME")
    if not host or not path:
        return None
    port = os.environ.get("SERVER_PORT", "")
    scheme = os.environ.get("PALACE_SCHEME", "http")
    default = {"http": "80", "https": "443"}.get(scheme)
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    where = host if not port or port == default else f"{host}:{port}"
    return f"{scheme}://{where}{path}"


def only_this_machine(base: str | None) -> bool:
    """True when a link names localhost (students' devices cannot open it)."""
    if base is None:
        return True
    host = base.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")
