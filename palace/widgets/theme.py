"""Shared look of the Palace panels: the card and panel style sheets, rule badges, HTML helpers."""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterable
from typing import Any

from ipywidgets import HTML, Layout, Widget

from palace.cards import Card
from palace.clauses import clause_ids, clause_text

_POPOVER_IDS = itertools.count(1)  # each badge's popover needs an id of its own on the page

# Cards: faces, backs, four-colour suits, struck-out and highlighted cards (widgets.cards).
# links in lesson text: underlined, not told apart by colour alone (WCAG 1.4.1)
LINK_RULE = """.jp-RenderedMarkdown a, .jp-RenderedHTMLCommon a, .jp-RenderedHTMLCommon a:link,
.palace-root a { text-decoration: underline !important; }"""

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
.palace-card.palace-struck { background: #ecebe6; }
.palace-card.palace-struck > .palace-corner, .palace-card.palace-struck > .palace-center {
  color: #292524; }
.palace-card.palace-struck.palace-red > .palace-corner,
.palace-card.palace-struck.palace-red > .palace-center { color: #991b1b; }
.palace-card.palace-struck::after { content: ""; position: absolute; inset: 0;
  border-radius: inherit; background: linear-gradient(to top right, transparent calc(50% - 2.5px),
  #dc2626 calc(50% - 2.5px), #dc2626 calc(50% + 2.5px), transparent calc(50% + 2.5px)); }
.palace-card.palace-seen { box-shadow: 0 0 0 2px #60a5fa, 0 2px 4px rgba(0,0,0,.28); }
.palace-cards { display: inline-flex; flex-wrap: wrap; gap: 6px; align-items: flex-start;
  padding-top: 3px; }
.palace-cards.palace-tight { gap: 4px; }
</style>"""

PANEL_CSS = (
    """<style>
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
.palace-tag-out { background: #4b5563; color: #fff; }
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
.palace-seat.palace-is-out { background: #e7e5e4; border: 3px dashed #78716c; }
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
  letter-spacing: .06em; color: #4b5563; margin-bottom: 3px; }
.palace-none { display: inline-block; color: #4b5563; font-style: italic; font-size: 13px;
  padding-top: 4px; }
.palace-table .palace-none { color: inherit; }

/* event banner (stepper) -------------------------------------------------------------- */
.palace-event { border-radius: 14px; padding: 12px 16px; background: #f8fafc;
  border: 1px solid #e2e8f0; border-left: 7px solid #1e3a8a; }
.palace-event-head { display: flex; align-items: center; gap: 10px; flex-wrap: wrap;
  font-size: 13px; color: #4b5563; margin-bottom: 6px; }
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
.palace-vs { align-self: center; font: 800 22px/1 system-ui, sans-serif; color: #4b5563; }
.palace-row-label { font-size: 11px; font-weight: 700; text-transform: uppercase;
  letter-spacing: .06em; color: #4b5563; margin: 6px 0 3px; }
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
.palace-reason { font-size: 13.5px; color: #4b5563; }
.palace-reason-off { color: #9a3412; }
.palace-advice { font-size: 13.5px; color: #1d4ed8; font-weight: 600; }
.palace-section { font-size: 12px; font-weight: 700; text-transform: uppercase;
  letter-spacing: .06em; color: #4b5563; margin-top: 4px; }
.palace-prompt { font-size: 17px; font-weight: 600; color: #111827; }
.palace-status-line { font-size: 14px; min-height: 20px; }
.palace-status-bad { color: #b91c1c; }
.palace-status-ok { color: #166534; }
.palace-log { background: #f8fafc; border: 1px solid #e2e8f0; border-radius: 12px;
  padding: 8px 12px; font-size: 14px; }
.palace-review-box { background: #f8fafc; border: 1px solid #e2e8f0; border-radius: 12px;
  padding: 8px 12px; font-size: 14.5px; }
.palace-review { margin: 4px 0 0; padding-left: 22px; }
.palace-review-line { padding: 3px 0; }
.palace-log-line { display: flex; gap: 8px; align-items: baseline; padding: 2px 0; }
.palace-log-line .palace-badge { flex: none; }
.palace-log-num { color: #4b5563; font-size: 12px; width: 34px; flex: none; text-align: right; }
.palace-result { border-radius: 14px; padding: 12px 16px; background: #f0fdf4;
  border: 2px solid #15803d; font-size: 18px; font-weight: 600; }
.palace-title { font-size: 21px; font-weight: 750; color: #111827; }
.palace-subtitle { font-size: 14px; color: #4b5563; }

.palace-picker { background: #ffffff; border: 1px solid #e5e7eb; border-radius: 14px;
  padding: 10px 14px 12px; box-shadow: 0 1px 4px rgba(0,0,0,.06); }
.palace-trophy { display: inline-block; width: 26px; height: 26px; border-radius: 50%;
  background: #f2b705; color: #422006; text-align: center; font: 800 16px/26px system-ui,
  sans-serif; margin-right: 6px; }

/* ipywidgets inside a palace panel: bigger, rounder controls (projector friendly) */
.palace-panel .jupyter-button, .palace-panel .widget-toggle-button {
  border-radius: 8px; font-size: 14.5px; height: 34px; }

.palace-panel .widget-label, .palace-panel .widget-inline-hbox .widget-label {
  font-size: 14px; }
.palace-panel .widget-html-content { line-height: 1.4; }

.palace-scroll { overflow-x: auto; max-width: 100%; }
.palace-clause-table { border-collapse: collapse; font-size: 14px; }
.palace-clause-table th, .palace-clause-table td { border: 1px solid #d1d5db; padding: 4px 8px;
  text-align: left; vertical-align: top; }
.palace-clause-table thead th { background: #f1f5f9; }
/* a study's figures (pandas to_html): light rules, figures right-aligned in even columns */
.palace-df-table { border-collapse: collapse; font-size: 13.5px;
  font-variant-numeric: tabular-nums; }
.palace-df-table th, .palace-df-table td { border: 0; border-bottom: 1px solid #e5e7eb;
  padding: 3px 10px; text-align: right; }
.palace-df-table thead th { background: #f1f5f9; border-bottom: 1px solid #cbd5e1;
  vertical-align: bottom; }
.palace-df-table tbody th { text-align: left; font-weight: 600; }

/* rule badges open the clause (popover) ------------------------------------------------ */
button.palace-badge { border: 0; cursor: pointer; margin: 0 1px; }
button.palace-badge:hover { background: #172554; }
button.palace-badge-warn:hover { background: #92400e; }
.palace-clause-pop { max-width: min(420px, 92vw); margin: auto; padding: 12px 16px;
  border: 2px solid #1e3a8a; border-radius: 12px; background: #fff; color: #111827;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
  box-shadow: 0 8px 30px rgba(0,0,0,.3); text-align: left; white-space: normal; }
.palace-clause-pop::backdrop { background: rgba(15,23,42,.18); }
.palace-clause-pop .palace-clause-id { font-weight: 750; color: #1e3a8a; margin-right: 6px; }
.palace-clause-pop p { margin: 0 0 6px; }
.palace-clause-pop .palace-clause-close { float: right; margin: -4px -6px 4px 8px;
  border: 1px solid #94a3b8; background: #f8fafc; color: #111827; border-radius: 8px;
  font-size: 13px; padding: 2px 10px; cursor: pointer; }

/* the legend of the marks ----------------------------------------------------------- */
.palace-legend { display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center;
  font-size: 13.5px; color: #374151; margin-top: 6px; }
.palace-legend-item { display: inline-flex; align-items: center; gap: 6px; }
.palace-legend-swatch { display: inline-block; width: 22px; height: 16px; border-radius: 4px;
  background: #fff; border: 1px solid #cfcabc; }
.palace-legend-best { box-shadow: 0 0 0 3px #f2b705; }
.palace-legend-struck { background: #ecebe6 linear-gradient(to top right, transparent 42%,
  #dc2626 42%, #dc2626 58%, transparent 58%); }
.palace-legend-act { border: 3px solid #f2b705; }
.palace-legend-focus { border: 3px solid #2563eb; }
.palace-legend-seen { box-shadow: 0 0 0 2px #60a5fa; }

/* what exclusion changed (the counterfactual line) ----------------------------------- */
.palace-counterfactual { margin-top: 6px; padding: 6px 10px; border-radius: 10px;
  background: #eff6ff; border: 1px solid #93c5fd; color: #1e3a8a; font-size: 14.5px; }
.palace-unstruck-note { font-size: 13.5px; color: #1e3a8a; font-weight: 600; }

/* odds bar -------------------------------------------------------------------------- */
.palace-odds { display: inline-flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.palace-odds-bar { display: inline-flex; width: 120px; height: 12px; border-radius: 6px;
  overflow: hidden; background: #e5e7eb; border: 1px solid #6b7280; flex: none; }
.palace-odds-win { background: #15803d; }
.palace-odds-tie { background: #ca8a04; }
.palace-odds-lose { background: #b91c1c; }

/* narration of the other players' moves ------------------------------------------------ */
.palace-narration { background: #f5f3ff; border: 1px solid #c4b5fd; border-left: 6px solid #6d28d9;
  border-radius: 12px; padding: 8px 12px; font-size: 15px; color: #1f2937; }
.palace-narration-line { padding: 2px 0; }
.palace-narration-line.palace-new { background: #fef9c3; border-radius: 6px; padding: 2px 6px; }
.palace-log-line.palace-new { background: #fef9c3; border-radius: 6px; }
.palace-cover { background: #1e3a8a; color: #fff; border-radius: 16px; padding: 22px 24px;
  font-size: 19px; font-weight: 650; text-align: center; }

/* ipywidgets inside a palace panel: colours with AA contrast, a visible focus ring ------- */
.palace-panel .jupyter-button.mod-primary, .palace-panel .widget-toggle-button.mod-primary {
  background-color: #1d4ed8; color: #fff; }
.palace-panel .jupyter-button.mod-success, .palace-panel .widget-toggle-button.mod-success {
  background-color: #15803d; color: #fff; }
.palace-panel .jupyter-button.mod-info, .palace-panel .widget-toggle-button.mod-info {
  background-color: #0e7490; color: #fff; }
.palace-panel .jupyter-button.mod-warning, .palace-panel .widget-toggle-button.mod-warning {
  background-color: #b45309; color: #fff; }
.palace-panel .jupyter-button.mod-danger, .palace-panel .widget-toggle-button.mod-danger {
  background-color: #b91c1c; color: #fff; }
.palace-panel .jupyter-button:disabled, .palace-panel .widget-toggle-button:disabled {
  opacity: 1 !important; background-color: #eceef1; color: #4b5563; cursor: not-allowed; }
.palace-panel .jupyter-button.mod-success:disabled { background-color: #166534; color: #fff; }
.palace-panel .jupyter-button.mod-danger:disabled { background-color: #991b1b; color: #fff; }
.palace-panel .jupyter-button.mod-active:not(.mod-danger):not(.mod-info) {
  background-color: #cbd5e1; color: #111827; }
.palace-panel :focus-visible, .palace-panel .jupyter-button:focus-visible,
.palace-panel input:focus-visible, .palace-panel select:focus-visible,
.palace-clause-pop :focus-visible, .palace-app .lm-TabBar-tab:focus-visible,
button.palace-badge:focus-visible {
  outline: 3px solid #1d4ed8 !important; outline-offset: 2px !important; }
.palace-root { overflow-wrap: break-word; word-break: normal; hyphens: manual; }
/* links in lesson text: underlined, not told apart by colour alone */
"""
    + LINK_RULE
    + """

/* a phone (390 px): everything wraps, nothing is cut ---------------------------------- */
@media (max-width: 640px) {
  .palace-panel .widget-box, .palace-panel .widget-hbox, .palace-panel .widget-vbox {
    min-width: 0 !important; max-width: 100% !important; }
  .palace-panel .widget-hbox { flex-wrap: wrap !important; }
  .palace-panel .jupyter-button, .palace-panel .widget-inline-hbox, .palace-panel .widget-html,
  .palace-panel .widget-text, .palace-panel .widget-dropdown, .palace-panel .widget-slider,
  .palace-panel .widget-checkbox, .palace-panel .widget-toggle-buttons {
    max-width: 100% !important; }
  .palace-panel .widget-label, .palace-panel .widget-inline-hbox .widget-label,
  .palace-panel .widget-label-basic, .palace-panel .widget-label-basic span {
    white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
    height: auto !important; line-height: 1.25 !important; min-width: 0 !important; }
  .palace-panel .widget-checkbox { height: auto !important; }
  .palace-panel .jupyter-button { white-space: normal !important; height: auto !important;
    min-height: 34px; overflow: visible !important; text-overflow: clip !important; }
  .palace-panel .widget-toggle-buttons .widget-toggle-button { max-width: 32vw; }
  .palace-battle { grid-template-columns: minmax(0, 1fr); }
  .palace-vs { justify-self: center; }
  .palace-compare, .palace-quiz-armies { grid-template-columns: minmax(0, 1fr); }
  .palace-seats { grid-template-columns: minmax(0, 1fr); }
  .palace-table { padding: 10px 8px 12px; border-width: 4px; }
  .palace-status { margin-left: 0; }
  .palace-event-body { flex-wrap: wrap; }
  .palace-event-text { font-size: 17px; }
}

/* printing a lesson prints all of it ---------------------------------------------------- */
@media print {
  html, body, #rendered_cells, #voila-root, .jp-Notebook, .jp-NotebookPanel, .jp-Cell,
  .jp-OutputArea, .jp-OutputArea-child, .jp-OutputArea-output, .voila-container, main,
  .lm-Widget, .jp-LabShell, .jp-MainAreaWidget {
    height: auto !important; max-height: none !important; overflow: visible !important; }
  html, body { position: static !important; }
  #main, #jp-main-content-panel, #rendered_cells, .jp-LabShell, .lm-BoxPanel,
  .lm-BoxPanel-child { position: static !important; height: auto !important;
    max-height: none !important; overflow: visible !important; contain: none !important;
    inset: auto !important; width: auto !important; }
  .palace-panel .widget-box, .palace-panel .widget-html { overflow: visible !important; }
  details::details-content { content-visibility: visible !important; display: block !important; }
  .palace-clause-pop { display: none !important; }
  .palace-side, .palace-seat, .palace-quiz-box, .palace-event { break-inside: avoid; }
}
</style>"""
)


def esc(text: object) -> str:
    """HTML-escape any value (names, sentences, reasons)."""
    return html.escape(str(text), quote=True)


def rule_badge(rule: str | None, *, warn: bool = False) -> str:
    """A pill showing a clause, e.g. ``R4.3``, that opens the clause's plain-English text
    (`palace.clauses`) in a popover: a real button, so it works by keyboard (Enter opens,
    Escape closes) and in Voilà. Empty for no rule; a plain pill for a number without text."""
    if not rule:
        return ""
    cls = "palace-badge palace-badge-warn" if warn else "palace-badge"
    ids = clause_ids(rule)
    if not ids:
        return f'<span class="{cls}">{esc(rule)}</span>'
    pid = f"palace-clause-{next(_POPOVER_IDS)}"
    body = "".join(
        f'<p><span class="palace-clause-id">{esc(cid)}</span>{esc(clause_text(cid))}</p>'
        for cid in ids
    )
    return (
        f'<button type="button" class="{cls}" popovertarget="{pid}" '
        f'aria-label="{esc(rule)}: read the rule">{esc(rule)}</button>'
        f'<span id="{pid}" popover class="palace-clause-pop" role="note">'
        f'<button type="button" class="palace-clause-close" popovertarget="{pid}" '
        f'popovertargetaction="hide">Close</button>{body}</span>'
    )


def clause_note(rule: str) -> str:
    """The clause texts of `rule` in plain text (``"R8.2: A card of ..."``), one a line."""
    return "\n".join(f"{cid}: {clause_text(cid)}" for cid in clause_ids(rule))


def symbols(cards: Iterable[Card]) -> str:
    """Cards as symbols for plain text: ``"K♠ 7♥"``, or ``"none"``."""
    out = " ".join(c.symbol for c in cards)
    return out or "none"


def quiet_tooltips(widget: Widget) -> Widget:
    """Give every control in `widget`'s tree an empty tooltip where it has none: ipywidgets
    8.1 writes a missing tooltip into the page as the word "null" (a label's title)."""
    stack = [widget]
    while stack:
        w = stack.pop()
        if "tooltip" in w.trait_names() and getattr(w, "tooltip", "") is None:
            w.set_trait("tooltip", "")
        stack.extend(getattr(w, "children", ()) or ())
    return widget


_STYLE_SHEETS: list[HTML] = []  # the one style widget of this kernel (style_widget)


def style_widget() -> HTML:
    """A hidden HTML child carrying the panel and card style sheets: every panel shows it,
    and all of them show the same widget (one model in the page, issue 26)."""
    if not _STYLE_SHEETS or _STYLE_SHEETS[0].comm is None:  # none yet, or closed
        _STYLE_SHEETS[:] = [HTML(value=CARD_CSS + PANEL_CSS, layout=shared_layout(display="none"))]
    return _STYLE_SHEETS[0]


def root(inner: str, extra_class: str = "") -> str:
    """Wrap panel HTML in the styled root element."""
    cls = f"palace-root {extra_class}".strip()
    return f'<div class="{cls}">{inner}</div>'


_SHARED_STYLES: dict[type, Widget] = {}


def share_default_styles() -> None:
    """From now on, controls made without a `style` share one default style per kind.

    Every ipywidgets control otherwise makes a style model of its own (a message to the
    page and a model in the browser) even when nobody ever changes it: half the models of
    a page. Palace never changes a default style in place (a panel that colours a control
    gives it a style of its own, as ipywidgets allows), so one shared style per kind draws
    the same page with far fewer models (issue 26). Called once per kernel; idempotent.
    """
    import ipywidgets

    for name in dir(ipywidgets):
        cls: Any = getattr(ipywidgets, name)
        if not (isinstance(cls, type) and issubclass(cls, Widget)):
            continue
        control: Any = cls  # a Widget class (mypy narrowed it to a bare type)
        traits: dict[str, Any] = control.class_traits()
        trait = traits.get("style")
        klass = getattr(trait, "klass", None)
        if trait is None or not isinstance(klass, type) or hasattr(trait, "_palace_shared"):
            continue

        def shared(klass: type = klass) -> Widget:
            style = _SHARED_STYLES.get(klass)
            if style is None or style.comm is None:  # closed (Widget.close_all): a new one
                style = _SHARED_STYLES[klass] = klass()
            return style

        trait.make_dynamic_default = shared
        trait._palace_shared = True


class SharedLayout(Layout):
    """A layout that several widgets share, read-only once made (see `shared_layout`)."""

    _frozen = False

    def __init__(self, **kwargs: str) -> None:
        super().__init__(**kwargs)
        self._frozen = True

    def __setattr__(self, name: str, value: object) -> None:
        if self._frozen and not name.startswith("_") and name in self.keys:
            raise AttributeError(
                f"this layout is shared by several widgets and cannot change its {name}: "
                "give the widget a Layout of its own"
            )
        super().__setattr__(name, value)


_SHARED_LAYOUTS: dict[tuple[tuple[str, str], ...], SharedLayout] = {}


def shared_layout(**kwargs: str) -> Layout:
    """One read-only `Layout` per set of properties, shared by every widget asking for it.

    For widgets whose layout never changes (most labels, rows and buttons): a layout is a
    model of its own in the page, so sharing one draws the page with fewer models (issue
    26). A widget that is ever hidden or resized needs a Layout of its own: changing a
    shared one raises AttributeError.
    """
    key = tuple(sorted(kwargs.items()))
    layout = _SHARED_LAYOUTS.get(key)
    if layout is None or layout.comm is None:  # closed (Widget.close_all): a new one
        layout = _SHARED_LAYOUTS[key] = SharedLayout(**kwargs)
    return layout


def is_shared(widget: Widget) -> bool:
    """Is `widget` one that many panels show (the style sheet, a shared layout or style)?
    Closing a panel must leave these open."""
    return (
        isinstance(widget, SharedLayout)
        or any(widget is w for w in _STYLE_SHEETS)
        or any(widget is w for w in _SHARED_STYLES.values())
    )
