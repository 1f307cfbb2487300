"""The app's class bar: open a link to a moment, copy it (and its QR code), join the class,
see what the teacher pushed, presenter mode, and the teacher's own tools.

`ClassroomBar` sits under the app's header. Everybody gets Copy link, QR code, Presenter
and "Join the class"; only the teacher's page (`set_teacher`) gets Push to the class, Save
as scenario and the link to the class dashboard. The app delegates `open_link` here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote

from ipywidgets import HTML, Button, HBox, Layout, Text, ToggleButton, VBox, Widget

from palace import strict
from palace.app.common import guard, message_html, own_row
from palace.app.deep_links import (
    Link,
    link_query,
    only_this_machine,
    page_base,
    parse_link,
)
from palace.app.files import LoadError, hand_json, load_data_file, load_hand_or_scenario
from palace.app.teacher import instructor_query
from palace.app.ticker import Ticker
from palace.classroom import ClassError, ClassStore, Push, join
from palace.game import Game
from palace.scenarios import ScenarioError, load_scenario
from palace.widgets.theme import esc, quiet_tooltips, root, shared_layout

if TYPE_CHECKING:  # built when first opened: imported then
    from palace.app.authoring import ScenarioAuthor
    from palace.app.presenter import Presenter

POLL_MS = 3000  # how often a student's page looks for a pushed position


@dataclass(frozen=True)
class Moment:
    """What the app shows now, as a link can name it."""

    game: Game | None
    event: int | None
    query: str | None  # None: this hand has no link (an upload): push it instead
    where: str  # "Replay" or "Play"


def qr_svg(url: str) -> str:
    """A QR code of `url` as inline SVG (segno, error correction M)."""
    import segno

    return segno.make(url, error="m").svg_inline(scale=5, border=2)


class ClassroomBar(VBox):
    """Links, QR code, joining, pushes, presenter mode and the teacher's tools.

    app: the `PalaceApp` (its `play`, `replay`, `tabs`, `select`, `say`, view switch).
    """

    def __init__(self, app: Any, *, store: ClassStore | None = None) -> None:
        self._app = app
        self._store = store
        self.teacher = False
        self._token: str | None = None
        self._seen_push: str | None = None
        self.pending: Push | None = None
        self.copy_button = HTML(layout=shared_layout())
        self.show_link_button = Button(
            description="Copy link", icon="link", layout=shared_layout(width="130px")
        )
        self.qr_toggle = ToggleButton(
            description="QR code", icon="qrcode", value=False, layout=shared_layout()
        )
        self.presenter_toggle = ToggleButton(
            description="Presenter",
            icon="television",
            value=False,
            layout=shared_layout(width="130px"),
        )
        self.name_box = Text(placeholder="your name", layout=Layout(width="180px"))
        self.join_button = Button(description="Join the class", icon="user-plus")
        self.joined = HTML(layout=shared_layout())
        self.message = HTML()
        self.ticker = Ticker(POLL_MS)
        # the parts below the bar are built the first time they are needed (issue 26)
        self._parts: dict[str, Widget] = {}

        self.show_link_button.on_click(self._on_show_link)
        self.qr_toggle.observe(self._on_qr, names="value")
        self.presenter_toggle.observe(self._on_presenter, names="value")
        self.join_button.on_click(self._on_join)
        self.ticker.observe(self._on_tick, names="value")

        self._bar = own_row(
            self.show_link_button,
            self.copy_button,
            self.qr_toggle,
            self.presenter_toggle,
            HTML(root('<span class="palace-section">Class</span>'), layout=shared_layout()),
            self.name_box,
            self.join_button,
            self.joined,
            self.ticker,
        )
        self._bar.add_class("palace-app-bar")
        self._parts = {"bar": self._bar, "message": self.message}
        super().__init__(
            [self._bar, self.message], layout=shared_layout(width="100%", grid_gap="6px")
        )
        self.add_class("palace-classroom")

    # ------------------------------------------------------------------ parts
    _ORDER = ("bar", "push", "teacher", "message", "link", "qr", "author", "presenter")

    def _part(self, key: str) -> Widget:
        """A part below the bar, built (and put in its place) the first time it is needed."""
        part = self._parts.get(key)
        if part is None:
            part = self._parts[key] = getattr(self, f"_build_{key}")()
            self.children = tuple(self._parts[k] for k in self._ORDER if k in self._parts)
        return part

    def _built(self, key: str) -> bool:
        return key in self._parts

    def _build_push(self) -> HBox:
        self._push_banner = HTML(layout=shared_layout())
        self._open_push_button = Button(
            description="Open it",
            icon="eye",
            button_style="warning",
            tooltip="",
            layout=Layout(display="none"),
        )
        self._open_push_button.on_click(self._on_open_push)
        return own_row(self._push_banner, self._open_push_button)

    def _build_link(self) -> Text:
        link = Text(
            description="Link", disabled=False, tooltip="", layout=Layout(width="min(560px, 100%)")
        )
        link.add_class("palace-link-text")
        return link

    def _build_qr(self) -> HTML:
        return HTML(layout=Layout(display="none"))

    def _build_author(self) -> ScenarioAuthor:
        from palace.app.authoring import ScenarioAuthor

        author = ScenarioAuthor(self.moment_game, on_saved=self._saved_scenario)
        author.layout.display = "none"
        quiet_tooltips(author)
        return author

    def _build_presenter(self) -> Presenter:
        from palace.app.presenter import Presenter

        presenter = Presenter(on_move=self._presenter_moved, on_leave=self.leave_presenter)
        presenter.layout.display = "none"
        quiet_tooltips(presenter)
        return presenter

    @property
    def push_banner(self) -> HTML:
        """The line that says the teacher pushed a position."""
        self._part("push")
        return self._push_banner

    @property
    def open_push_button(self) -> Button:
        """ "Open it": opens the pushed position."""
        self._part("push")
        return self._open_push_button

    @property
    def link_text(self) -> Text:
        """The box holding the link to this moment (after Copy link)."""
        part = self._part("link")
        assert isinstance(part, Text)
        return part

    @property
    def qr(self) -> HTML:
        """The QR code of the link."""
        part = self._part("qr")
        assert isinstance(part, HTML)
        return part

    def _build_teacher(self) -> HBox:
        """Push to the class, Save as scenario and the dashboard link: the teacher's row."""
        self._push_button = Button(
            description="Push to the class",
            icon="bullhorn",
            tooltip="every student's app offers this position",
            layout=shared_layout(width="180px"),
        )
        self._push_note = Text(
            placeholder="look at this battle", tooltip="", layout=shared_layout(width="240px")
        )
        self._author_toggle = ToggleButton(
            description="Save as scenario", icon="save", tooltip="", layout=shared_layout()
        )
        self._dashboard_link = HTML(layout=shared_layout())
        self._push_button.on_click(self._on_push)
        self._author_toggle.observe(self._on_author, names="value")
        return own_row(  # hidden again if the page stops being the teacher's
            HTML(root('<span class="palace-section">Teacher</span>'), layout=shared_layout()),
            self._push_note,
            self._push_button,
            self._author_toggle,
            self._dashboard_link,
        )

    @property
    def push_button(self) -> Button:
        self._part("teacher")
        return self._push_button

    @property
    def push_note(self) -> Text:
        self._part("teacher")
        return self._push_note

    @property
    def author_toggle(self) -> ToggleButton:
        self._part("teacher")
        return self._author_toggle

    @property
    def dashboard_link(self) -> HTML:
        self._part("teacher")
        return self._dashboard_link

    @property
    def author(self) -> ScenarioAuthor:
        """The teacher's "Save as scenario" form (built on first use)."""
        part: ScenarioAuthor = self._part("author")
        return part

    @property
    def presenter(self) -> Presenter:
        """Presenter mode (built on first use)."""
        part: Presenter = self._part("presenter")
        return part

    # ------------------------------------------------------------------ store
    @property
    def store(self) -> ClassStore:
        """The class store (default: ``PALACE_CLASS_DB`` or ``data/class/class.sqlite3``)."""
        if self._store is None:
            self._store = ClassStore()
        return self._store

    @store.setter
    def store(self, store: ClassStore) -> None:
        self._store = store

    def say(self, text: str, *, ok: bool) -> None:
        self.message.value = message_html(strict.printable(text, 1200), ok=ok)

    # ------------------------------------------------------------------ teacher
    def set_teacher(self, teacher: bool, token: str | None = None) -> None:
        """Show or hide the teacher's tools (the app also adds "All cards")."""
        self.teacher = teacher
        self._token = token if teacher else None
        if teacher or self._built("teacher"):
            self._part("teacher").layout.display = None if teacher else "none"
        if not teacher:
            if self._built("teacher"):
                self.author_toggle.value = False
                self.dashboard_link.value = ""
        else:
            q = f"?{instructor_query(token)}" if token else ""
            self.dashboard_link.value = root(
                f'<a class="palace-download" href="class.ipynb{esc(q)}" target="_blank" '
                'rel="noopener">Class dashboard ↗</a>'
            )

    # ------------------------------------------------------------------ moments
    def moment(self) -> Moment:
        """The moment shown: Replay's hand and event when Replay is the tab, else Play's."""
        app = self._app
        replay = app.replay if app.tabs.selected_index == 1 else None
        if replay is not None and replay.game is not None and replay.stepper:
            event = replay.stepper.index
            name = replay.data_name
            if name is None:
                return Moment(replay.game, event, None, "Replay")
            if name.startswith("scenarios/") and replay.from_scenario_dir:
                q = link_query(scenario=name.removeprefix("scenarios/"), event=event)
            else:
                q = link_query(hand=name, event=event)
            return Moment(replay.game, event, q, "Replay")
        g = app.play.game
        q = link_query(seed=g.seed, players=g.players, variant=app.play.variant.value)
        return Moment(g, None, q, "Play")

    def moment_game(self) -> tuple[Game | None, int | None]:
        m = self.moment()
        return m.game, m.event

    def link(self) -> str | None:
        """The full address of the moment (never the token), or None when it has none."""
        m = self.moment()
        if m.query is None:
            return None
        base = page_base() or "app.ipynb"
        return f"{base}?{m.query}"

    # ------------------------------------------------------------------ opening links
    def open_link(self, query: str | Link | None) -> list[str]:
        """Open what a link asks for; a bad link changes nothing and says why (returned)."""
        link = query if isinstance(query, Link) else parse_link(query)
        problems = list(link.problems)
        if not problems and link.opens == "replay":
            problems = self._open_replay(link)
        elif not problems and link.opens == "play":
            problems = self._open_play(link)
        if problems:
            self._app.select("Play")
            self._app.say(
                "This link was not opened (the app shows its usual start): " + "; ".join(problems),
                ok=False,
            )
            return problems
        if link.presenter:
            self.presenter_toggle.value = True
        return []

    def _open_replay(self, link: Link) -> list[str]:
        replay = self._app.replay
        try:
            if link.scenario is not None:
                key = f"scenario:{link.scenario}"
                if key not in replay.entry_keys:
                    return [f"the scenario {link.scenario} is not in the Replay list"]
                game = load_scenario(replay.scenario_dir / link.scenario).game()
            else:
                assert link.hand is not None
                loaded = load_data_file(link.hand)
                game = loaded.game
        except (LoadError, ScenarioError) as exc:
            return [str(exc)]
        last = len(game.events) - 1
        event = link.event if link.event is not None else 0
        if not 0 <= event <= last:
            return [f"event {event} is not in this hand: its events are #0 to #{last}"]
        if link.scenario is not None:
            replay.select(f"scenario:{link.scenario}")
        else:
            replay.add(loaded, f"data/{link.hand} · {loaded.title}", data_name=link.hand)
        self._app.select("Replay")
        if replay.stepper is not None:
            replay.stepper.go(event)
        replay.say(f"Opened from a link at step {event + 1}.", ok=True)
        return []

    def _open_play(self, link: Link) -> list[str]:
        play = self._app.play
        if link.players is not None:
            play.players.value = str(link.players)
        if link.variant is not None:
            play.variant.value = link.variant
        if not play.deal(link.seed):
            return ["the hand could not be dealt (see the message above the table)"]
        self._app.select("Play")
        return []

    # ------------------------------------------------------------------ presenter
    def open_presenter(self) -> None:
        m = self.moment()
        if m.game is None:
            self.say("There is no hand to present.", ok=False)
            return
        seat, reveal = self._app.table_view()
        if self.teacher:  # the projector is the teacher's: every card, so battles show
            seat, reveal = None, True
        event = m.event if m.event is not None else len(m.game.events) - 1
        self.presenter.show(m.game, event, seat, reveal)
        self._app.presenting(True)
        self._hidden = [w for w in self.children if w is not self.presenter]
        self._shown = {id(w): w.layout.display for w in self._hidden}
        for w in self._hidden:
            w.layout.display = "none"
        self.presenter.layout.display = None

    def leave_presenter(self) -> None:
        self.presenter_toggle.value = False

    def _presenter_moved(self, index: int) -> None:
        if self._app.tabs.selected_index != 1:
            return
        replay = self._app.replay
        if replay.stepper is not None and replay.game is self.presenter.game:
            replay.stepper.go(index)

    # ------------------------------------------------------------------ pushes
    def push(self, note: str = "") -> Push | None:
        """Teacher: send the moment to every student's app."""
        if not self.teacher:
            self.say("Only the teacher's page can push a position.", ok=False)
            return None
        m = self.moment()
        if m.game is None:
            self.say("There is no hand to push.", ok=False)
            return None
        hand = ""
        query = m.query
        if query is None or m.where == "Play":  # the moves are not in a seed link
            hand = hand_json(m.game)
            event = m.event if m.event is not None else len(m.game.events) - 1
            query = link_query(event=event)
        try:
            item = self.store.push(query, note or self.push_note.value or "Look at this", hand=hand)
        except (ClassError, OSError) as exc:
            self.say(f"Not pushed: {exc}", ok=False)
            return None
        self._seen_push = item.id
        self.say(f"Pushed to the class: “{item.note}” ({m.where}).", ok=True)
        return item

    def check_push(self) -> Push | None:
        """Look for a new push (the ticker calls this); shows the banner when there is one."""
        if not self.store.exists():
            return None
        item = self.store.latest_push()
        if item is None:
            return None
        if self._seen_push is None:
            self._seen_push = item.id if self.teacher else None
        if item.id == self._seen_push or (self.pending and self.pending.id == item.id):
            return None
        self.pending = item
        self.push_banner.value = root(
            '<div class="palace-okay palace-push" role="status">📣 Your teacher shared a '
            f"position: <b>{esc(item.note)}</b></div>"
        )
        self.open_push_button.layout.display = None
        return item

    def open_push(self) -> list[str]:
        """Open the pushed position (the banner's button)."""
        item = self.pending
        if item is None:
            return ["nothing was pushed"]
        self._seen_push = item.id
        self.pending = None
        if self._built("push"):
            self.push_banner.value = ""
            self.open_push_button.layout.display = "none"
        if item.hand:
            asked = dict(parse_qsl(item.query)).get("event", "")
            try:
                loaded = load_hand_or_scenario(item.hand, source="pushed by your teacher")
            except LoadError as exc:
                self.say(f"The pushed position could not be opened: {exc}", ok=False)
                return [str(exc)]
            replay = self._app.replay
            last = len(loaded.game.events) - 1
            event = min(int(asked), last) if asked.isdigit() else last
            replay.add(loaded, f"Pushed · {item.note}")
            self._app.select("Replay")
            if replay.stepper is not None:
                replay.stepper.go(event)
            return []
        return self.open_link(item.query)

    # ------------------------------------------------------------------ callbacks
    @guard
    def _on_show_link(self, _: Button) -> None:
        url = self.link()
        if url is None:
            self.copy_button.value = ""
            self.say(
                "This hand is not in data/, so no link can name it: push it to the class, or "
                "save it as a scenario first.",
                ok=False,
            )
            return
        self.link_text.value = url
        self.link_text.layout.display = None
        js = (  # the clipboard API needs HTTPS or localhost: else select the box and copy
            "var b=this,u=" + esc(json.dumps(url)) + ";function ok(){b.textContent='✓ Copied';}"
            "if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(u)"
            ".then(ok);}else{var i=document.querySelector('.palace-link-text input');"
            "if(i){i.select();document.execCommand('copy');ok();}}"
        )
        self.copy_button.value = (
            f'<button class="palace-download palace-copy" onclick="{js}">Copy to clipboard</button>'
        )
        warn = ""
        if only_this_machine(page_base()):
            warn = (
                " It names this machine only (127.0.0.1): for students' devices serve with "
                "make app HOST=0.0.0.0 and open the app at this machine's address."
            )
        self.say("The link to this moment is below." + warn, ok=not warn)
        if self.qr_toggle.value:
            self.qr.value = qr_svg(url)

    def _on_qr(self, change: dict) -> None:
        url = self.link()
        if change["new"] and url is not None:
            self.qr.value = root(f'<div class="palace-qr">{qr_svg(url)}</div>')
            self.qr.layout.display = None
        elif self._built("qr"):
            self.qr.layout.display = "none"

    @guard
    def _on_presenter(self, change: dict) -> None:
        if change["new"]:
            self.open_presenter()
        else:
            if self._built("presenter"):
                self.presenter.layout.display = "none"
            for w in getattr(self, "_hidden", []):
                w.layout.display = self._shown.get(id(w))
            self._hidden = []
            self._app.presenting(False)

    @guard
    def _on_join(self, _: Any) -> None:
        try:
            rec = join(self.name_box.value, store=self.store)
        except (ClassError, OSError) as exc:
            self.say(f"Not joined: {exc}", ok=False)
            return
        cookie = quote(rec.student)
        self.joined.value = (
            f'<span class="palace-okay" data-palace-student="{esc(cookie)}">'
            f"✓ Joined as {esc(rec.student)}: your answers count for the class</span>"
        )
        self.name_box.layout.display = "none"
        self.join_button.layout.display = "none"

    @guard
    def _on_open_push(self, _: Button) -> None:
        self.open_push()

    @guard
    def _on_push(self, _: Button) -> None:
        self.push()

    def _on_author(self, change: dict) -> None:
        shown = change["new"] and self.teacher
        if shown or self._built("author"):
            self.author.layout.display = None if shown else "none"

    def _saved_scenario(self, path: Any) -> None:
        self._app.replay.add_scenario_file(path)

    def _on_tick(self, _: dict) -> None:
        try:
            self.check_push()
        except Exception:  # noqa: BLE001 - a busy database: the next tick tries again
            pass
