"""Shared look of the Palace panels: the card and panel style sheets, rule badges, HTML helpers."""

from __future__ import annotations

import html
from collections.abc import Iterable

from ipywidgets import HTML, Layout

from palace.cards import Card

# Cards: faces, backs, four-colour suits, struck-out and highlighted cards (widgets.cards).
CARD_CSS = """<style>
.palace-card { position: relative; display: inline-block; flex: none; width: 62px; height: 88px;
  border-radius: 8px; background: linear-gradient(160deg, #ffffff 0%, #f7f5ee 100%);
  border: 1px solid #cfcabc; box-shadow: 0 2px 4px rgba(0,0,0,.28);
  font-family: Georgia, "DejaVu Serif", "Times New Roman", serif; color: #111;
  vertical-align: top; user-select: none; line-height: 1; }
.palace-card .palace-corner { position: absolute; display: flex; flex-direction: column;
  align-items: center; width: 22px; }
.palace-card .palace-tl { top: 5px; left: 3px; }
.palace-card .palace-br { bottom: 5px; right: 3px; transform: rotate(180deg); }
.palace-card .palace-rank { font-size: 20px; font-weight: 700; letter-spacing: -1px; }
.palace-card .palace-pip { font-size: 16px; margin-top: 1px; }
.palace-card .palace-center { position: absolute; left: 0; right: 0; top: 50%;
  transform: translateY(-50%); text-align: center; font-size: 32px; }
.palace-card.palace-small { width: 42px; height: 60px; border-radius: 6px; }
.palace-card.palace-small .palace-rank { font-size: 15px; }
.palace-card.palace-small .palace-pip { font-size: 12px; }
.palace-card.palace-small .palace-tl { top: 3px; left: 1px; width: 18px; }
.palace-card.palace-small .palace-br { display: none; }
.palace-card.palace-small .palace-center { font-size: 22px; top: 62%; }
.palace-card.palace-red { color: #c81e1e; }
.palace-card.palace-4c.palace-suit-c { color: #15803d; }
.palace-card.palace-4c.palace-suit-d { color: #1d4ed8; }
.palace-card.palace-4c.palace-suit-h { color: #c81e1e; }
.palace-card.palace-4c.palace-suit-s { color: #111111; }
.palace-card.palace-4c.palace-suit-c, .palace-card.palace-4c.palace-suit-d {
  background: linear-gradient(160deg, #ffffff 0%, #f2f6f4 100%); }
.palace-card.palace-back { background-color: #1e3a8a; border: 1px solid #0b1a4a;
  background-image: repeating-linear-gradient(45deg, rgba(255,255,255,.16) 0 3px,
  transparent 3px 9px), repeating-linear-gradient(-45deg, rgba(255,255,255,.16) 0 3px,
  transparent 3px 9px); box-shadow: inset 0 0 0 3px #fdfcf7, inset 0 0 0 4px #0b1a4a,
  0 2px 4px rgba(0,0,0,.3); }
.palace-card.palace-hl { box-shadow: 0 0 0 3px #f2b705, 0 3px 8px rgba(0,0,0,.35);
  transform: translateY(-3px); }
.palace-card.palace-struck { background: #ecebe6; opacity: .82; }
.palace-card.palace-struck > .palace-corner, .palace-card.palace-struck > .palace-center {
  opacity: .45; }
.palace-card.palace-struck::after { content: ""; position: absolute; inset: 0;
  border-radius: inherit; background: linear-gradient(to top right, transparent calc(50% - 2.5px),
  #dc2626 calc(50% - 2.5px), #dc2626 calc(50% + 2.5px), transparent calc(50% + 2.5px)); }
.palace-card.palace-seen { box-shadow: 0 0 0 2px #60a5fa, 0 2px 4px rgba(0,0,0,.28); }
.palace-cards { display: inline-flex; flex-wrap: wrap; gap: 6px; align-items: flex-start;
  padding-top: 3px; }
.palace-cards.palace-tight { gap: 4px; }
</style>"""

PANEL_CSS = """<style>
.palace-root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue",
  Arial, sans-serif; font-size: 15px; line-height: 1.4; color: #1f2937; }
.palace-root * { box-sizing: border-box; }
.palace-root b { font-weight: 650; }

/* rule badge -------------------------------------------------------------------- */
.palace-badge { display: inline-block; padding: 1px 8px; border-radius: 999px;
  background: #1e3a8a; color: #fff; font: 600 12px/18px ui-monospace, SFMono-Regular, Menlo,
  Consolas, monospace; letter-spacing: .02em; vertical-align: 1px; white-space: nowrap; }
.palace-badge-warn { background: #b45309; }
.palace-tag { display: inline-block; padding: 0 7px; border-radius: 6px; font-size: 12px;
  font-weight: 650; line-height: 19px; text-transform: uppercase; letter-spacing: .04em;
  white-space: nowrap; }
.palace-tag-act { background: #f2b705; color: #422006; }
.palace-tag-out { background: #9ca3af; color: #fff; }
.palace-tag-you { background: #2563eb; color: #fff; }
.palace-tag-win { background: #15803d; color: #fff; }

/* the felt table ------------------------------------------------------------------ */
.palace-table { background: radial-gradient(ellipse at 50% 30%, #1f7a4a 0%, #17603a 55%,
  #0f4429 100%); border-radius: 22px; padding: 16px 18px 18px; border: 6px solid #5b3a1e;
  box-shadow: inset 0 0 40px rgba(0,0,0,.35), 0 3px 10px rgba(0,0,0,.25); color: #f9fafb; }
.palace-table-top { display: flex; flex-wrap: wrap; align-items: center; gap: 12px 22px;
  margin-bottom: 12px; }
.palace-pot { display: flex; align-items: center; gap: 8px; background: rgba(0,0,0,.28);
  border-radius: 999px; padding: 5px 16px 5px 8px; font-size: 17px; }
.palace-chip { width: 26px; height: 26px; border-radius: 50%; background: #dc2626;
  border: 4px dashed #fff; box-shadow: 0 1px 3px rgba(0,0,0,.5); }
.palace-pile { display: flex; align-items: center; gap: 8px; font-size: 15px; }
.palace-pile b { font-size: 17px; }
.palace-status { margin-left: auto; background: rgba(255,255,255,.12); border-radius: 10px;
  padding: 5px 12px; font-size: 15px; }
.palace-rejects { display: flex; align-items: center; gap: 10px; flex-wrap: wrap;
  background: rgba(0,0,0,.22); border-radius: 12px; padding: 8px 12px; margin-bottom: 12px; }
.palace-seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(290px, 1fr));
  align-items: start;
  gap: 12px; }
.palace-seat { background: #fdfcf7; color: #1f2937; border-radius: 14px; padding: 9px 12px 11px;
  border: 3px solid transparent; box-shadow: 0 2px 6px rgba(0,0,0,.3); }
.palace-seat.palace-to-act { border-color: #f2b705; box-shadow: 0 0 0 3px rgba(242,183,5,.35),
  0 2px 10px rgba(0,0,0,.4); }
.palace-seat.palace-focus { border-color: #60a5fa; box-shadow: 0 0 0 3px rgba(96,165,250,.45),
  0 2px 10px rgba(0,0,0,.4); }
.palace-seat.palace-is-out { opacity: .5; filter: grayscale(.85); }
.palace-seat.palace-is-you { background: #eef4ff; }
.palace-seat-head { display: flex; align-items: center; gap: 7px; flex-wrap: wrap;
  margin-bottom: 6px; }
.palace-name { font-size: 18px; font-weight: 700; }
.palace-dealer { display: inline-flex; align-items: center; justify-content: center;
  width: 24px; height: 24px; border-radius: 50%; background: #fff; color: #111;
  border: 2px solid #111; font: 800 13px/1 system-ui, sans-serif;
  box-shadow: 0 1px 2px rgba(0,0,0,.4); }
.palace-money { margin-left: auto; font-size: 13px; color: #4b5563; white-space: nowrap; }
.palace-zones { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: flex-start; }
.palace-zone-label { font-size: 11px; font-weight: 700; text-transform: uppercase;
  letter-spacing: .06em; color: #6b7280; margin-bottom: 3px; }
.palace-none { display: inline-block; color: #9ca3af; font-style: italic; font-size: 13px;
  padding-top: 4px; }
.palace-table .palace-none { color: inherit; opacity: .7; }

/* event banner (stepper) -------------------------------------------------------------- */
.palace-event { border-radius: 14px; padding: 12px 16px; background: #f8fafc;
  border: 1px solid #e2e8f0; border-left: 7px solid #1e3a8a; }
.palace-event-head { display: flex; align-items: center; gap: 10px; flex-wrap: wrap;
  font-size: 13px; color: #6b7280; margin-bottom: 6px; }
.palace-event-kind { font-size: 13px; font-weight: 700; text-transform: uppercase;
  letter-spacing: .05em; color: #1e3a8a; }
.palace-event-body { display: flex; align-items: center; gap: 14px; }
.palace-event-text { font-size: 19px; font-weight: 550; color: #111827; }
.palace-event.palace-event-reject { background: #fffbeb; border-color: #fcd34d;
  border-left-color: #d97706; }
.palace-event.palace-event-reject .palace-event-kind { color: #b45309; }
.palace-event.palace-event-battle { background: #fef2f2; border-color: #fecaca;
  border-left-color: #b91c1c; }
.palace-event.palace-event-battle .palace-event-kind { color: #b91c1c; }
.palace-event.palace-event-pot { background: #f0fdf4; border-color: #bbf7d0;
  border-left-color: #15803d; }
.palace-event.palace-event-pot .palace-event-kind { color: #15803d; }

/* battle -------------------------------------------------------------------------- */
.palace-battle { display: grid; grid-template-columns: 1fr auto 1fr; gap: 12px;
  align-items: stretch; }
.palace-side { background: #fff; border: 1px solid #e5e7eb; border-radius: 14px;
  padding: 10px 14px 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
.palace-side.palace-winner { border: 3px solid #15803d; }
.palace-side.palace-loser { background: #f9fafb; }
.palace-side-head { display: flex; align-items: center; gap: 8px; flex-wrap: wrap;
  margin-bottom: 8px; }
.palace-vs { align-self: center; font: 800 22px/1 system-ui, sans-serif; color: #9ca3af; }
.palace-row-label { font-size: 11px; font-weight: 700; text-transform: uppercase;
  letter-spacing: .06em; color: #6b7280; margin: 6px 0 3px; }
.palace-hand-name { font-size: 17px; font-weight: 700; margin-top: 6px; }
.palace-lost { font-size: 13px; color: #b91c1c; margin-top: 4px; }
.palace-verdict { margin-top: 12px; border-radius: 12px; padding: 10px 14px;
  background: #f0fdf4; border: 1px solid #bbf7d0; font-size: 16px; }
.palace-verdict.palace-tie { background: #fffbeb; border-color: #fde68a; }
.palace-verdict-line { margin-top: 4px; font-size: 14px; color: #374151; }

/* explorer -------------------------------------------------------------------------- */
.palace-compare { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.palace-error { background: #fef2f2; color: #991b1b; border: 1px solid #fecaca;
  border-radius: 10px; padding: 6px 12px; font-size: 14px; }
.palace-note { color: #374151; font-size: 14px; }
.palace-taken { background: #fff7ed; border: 1px solid #fed7aa; border-radius: 12px;
  padding: 8px 12px; margin-top: 10px; font-size: 15px; }

/* action picker and play panel --------------------------------------------------------- */
.palace-reason { font-size: 13.5px; color: #6b7280; }
.palace-reason-off { color: #9a3412; }
.palace-advice { font-size: 13.5px; color: #1d4ed8; font-weight: 600; }
.palace-section { font-size: 12px; font-weight: 700; text-transform: uppercase;
  letter-spacing: .06em; color: #6b7280; margin-top: 4px; }
.palace-prompt { font-size: 17px; font-weight: 600; color: #111827; }
.palace-status-line { font-size: 14px; min-height: 20px; }
.palace-status-bad { color: #b91c1c; }
.palace-status-ok { color: #166534; }
.palace-log { background: #f8fafc; border: 1px solid #e2e8f0; border-radius: 12px;
  padding: 8px 12px; font-size: 14px; }
.palace-log-line { display: flex; gap: 8px; align-items: baseline; padding: 2px 0; }
.palace-log-line .palace-badge { flex: none; }
.palace-log-num { color: #9ca3af; font-size: 12px; width: 34px; flex: none; text-align: right; }
.palace-result { border-radius: 14px; padding: 12px 16px; background: #f0fdf4;
  border: 2px solid #15803d; font-size: 18px; font-weight: 600; }
.palace-title { font-size: 21px; font-weight: 750; color: #111827; }
.palace-subtitle { font-size: 14px; color: #6b7280; }

.palace-picker { background: #ffffff; border: 1px solid #e5e7eb; border-radius: 14px;
  padding: 10px 14px 12px; box-shadow: 0 1px 4px rgba(0,0,0,.06); }
.palace-trophy { display: inline-block; width: 26px; height: 26px; border-radius: 50%;
  background: #f2b705; color: #422006; text-align: center; font: 800 16px/26px system-ui,
  sans-serif; margin-right: 6px; }

/* ipywidgets inside a palace panel: bigger, rounder controls (projector friendly) */
.palace-panel .jupyter-button, .palace-panel .widget-toggle-button {
  border-radius: 8px; font-size: 14.5px; height: 34px; }
.palace-panel .jupyter-button:disabled { opacity: .45; }
.palace-panel .widget-label, .palace-panel .widget-inline-hbox .widget-label {
  font-size: 14px; }
.palace-panel .widget-html-content { line-height: 1.4; }
</style>"""


def esc(text: object) -> str:
    """HTML-escape any value (names, sentences, reasons)."""
    return html.escape(str(text), quote=True)


def rule_badge(rule: str | None, *, warn: bool = False) -> str:
    """A pill showing a RULES.md clause, e.g. ``R4.3``; empty for no rule."""
    if not rule:
        return ""
    cls = "palace-badge palace-badge-warn" if warn else "palace-badge"
    return f'<span class="{cls}" title="Rule {esc(rule)} in RULES.md">{esc(rule)}</span>'


def symbols(cards: Iterable[Card]) -> str:
    """Cards as symbols for plain text: ``"K♠ 7♥"``, or ``"none"``."""
    out = " ".join(c.symbol for c in cards)
    return out or "none"


def style_widget() -> HTML:
    """A hidden HTML child carrying the panel and card style sheets (one per panel)."""
    return HTML(value=CARD_CSS + PANEL_CSS, layout=Layout(display="none"))


def root(inner: str, extra_class: str = "") -> str:
    """Wrap panel HTML in the styled root element."""
    cls = f"palace-root {extra_class}".strip()
    return f'<div class="{cls}">{inner}</div>'
