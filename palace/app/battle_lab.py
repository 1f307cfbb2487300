"""The app's Battle lab tab: the exclusion explorer and a battle between two typed armies."""

from __future__ import annotations

from ipywidgets import HTML, Button, HBox, Layout, Text, VBox

from palace.app.common import flow_row, guard, message_html, titled_box
from palace.battle import Army
from palace.cards import Card, parse_cards
from palace.errors import CardError
from palace.widgets.battle_view import BattleView
from palace.widgets.exclusion_explorer import ExclusionExplorer
from palace.widgets.theme import root


class BattleLab(VBox):
    """The exclusion explorer, and a battle between two armies typed by the instructor."""

    DEFAULTS = (("Ann", "Kh", "Qs Js Ts", "9s 2c 3d"), ("Bob", "As", "Ac", "5d 6d 8c"))

    def __init__(self) -> None:
        self.explorer = ExclusionExplorer()
        self.sides: list[dict[str, Text]] = []
        columns = []
        for role, (name, banner, soldiers, palace) in zip(
            ("Attacker", "Defender"), self.DEFAULTS, strict=True
        ):
            fields = {
                "name": Text(value=name, description="Name"),
                "banner": Text(value=banner, description="Banner", placeholder="one card, e.g. Kh"),
                "soldiers": Text(
                    value=soldiers, description="Soldiers", placeholder="0-5 cards, e.g. Qs Js"
                ),
                "palace": Text(
                    value=palace, description="Palace", placeholder="up to 3 cards, e.g. 9s 2c 3d"
                ),
            }
            for w in fields.values():
                w.continuous_update = False
                w.layout = Layout(width="340px")
                w.observe(self._on_input, names="value")
            self.sides.append(fields)
            columns.append(
                VBox([HTML(root(f'<div class="palace-section">{role}</div>')), *fields.values()])
            )
        self.show_button = Button(
            description="Show down",
            icon="bolt",
            button_style="danger",
            layout=Layout(width="140px"),
        )
        self.show_button.on_click(self._on_show)
        self.error = HTML()
        self.battle = BattleView()
        self._message = ""
        intro = HTML(
            root(
                '<div class="palace-note">Type cards as rank + suit: <code>As Kd 7h Tc</code> '
                "(T = ten). Each side's hand is its banner, soldiers and palace (R8.1); the "
                "opponent's banner suit does not count (R8.2).</div>"
            )
        )
        builder = titled_box(
            "Battle builder",
            intro,
            HBox(columns, layout=Layout(flex_flow="row wrap", grid_gap="24px")),
            flow_row(self.show_button),
            self.error,
            self.battle,
        )
        super().__init__(
            [titled_box("Exclusion explorer (R8.2)", self.explorer), builder],
            layout=Layout(width="100%", grid_gap="12px"),
        )
        self.add_class("palace-panel")
        self.add_class("palace-app-battle")
        self.update()

    @property
    def message(self) -> str:
        """The last validation problem ("" when both armies are fine)."""
        return self._message

    def armies(self) -> tuple[Army, Army, tuple[str, str]]:
        """Both armies from the inputs; `CardError` names the side and the problem."""
        armies: list[Army] = []
        names: list[str] = []
        seen: dict[Card, str] = {}
        for role, f in zip(("attacker", "defender"), self.sides, strict=True):
            name = f["name"].value.strip() or role.capitalize()
            names.append(name)
            try:
                banner = parse_cards(f["banner"].value)
                soldiers = parse_cards(f["soldiers"].value)
                palace = parse_cards(f["palace"].value)
            except CardError as exc:
                raise CardError(f"{name} ({role}): {exc}") from None
            if len(banner) != 1:
                raise CardError(
                    f"{name} ({role}): the banner is exactly one card (R4), got {len(banner)}"
                )
            if len(soldiers) > 5:
                raise CardError(
                    f"{name} ({role}): at most five soldiers (R6.7), got {len(soldiers)}"
                )
            if len(palace) > 3:
                raise CardError(
                    f"{name} ({role}): a palace has three cards (R5.1), got {len(palace)}"
                )
            for c in (*banner, *soldiers, *palace):
                if c in seen:
                    raise CardError(
                        f"{c} appears twice ({seen[c]} and {name}): a deck has each "
                        "card once (R1.2)"
                    )
                seen[c] = name
            armies.append(Army(banner[0], soldiers, palace))
        if armies[0].suit == armies[1].suit:
            raise CardError(
                f"both banners are {armies[0].suit.noun}: players of the same banner suit "
                "never battle (R7.2)"
            )
        return armies[0], armies[1], (names[0], names[1])

    def update(self) -> bool:
        try:
            att, dfn, names = self.armies()
        except CardError as exc:
            self._message = str(exc)
            self.error.value = message_html(f"{exc} — showing the last good battle.", ok=False)
            return False
        self._message = ""
        self.error.value = ""
        self.battle.show_result(att, dfn, names)
        return True

    def say(self, text: str, *, ok: bool) -> None:
        self.error.value = message_html(text, ok=ok)

    def set_four_color(self, value: bool) -> None:
        """Four-colour suits in the explorer and the battle (the app's header switch)."""
        self.explorer.four_color = bool(value)
        self.explorer.refresh()
        self.battle.four_color = bool(value)
        self.battle.refresh()

    @guard
    def _on_input(self, _: dict) -> None:
        self.update()

    @guard
    def _on_show(self, _: Button) -> None:
        self.update()

    def text(self) -> str:
        lines = [
            "== Exclusion explorer ==",
            self.explorer.text(),
            "== Battle ==",
            self.battle.text(),
        ]
        if self._message:
            lines.append(f"Error: {self._message}")
        return "\n".join(lines)
