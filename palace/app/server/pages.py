"""What the server writes itself: "starting, N ahead of you", "the class is full", "did not start".

The waiting note is the start of the page the visitor asked for: it is sent at once, updated
by small scripts while the page waits in line, and taken away when Voilà's own page (which
follows in the same response) begins. The full page is a whole page of its own (HTTP 503).
A page that did not start (its kernel stopped) is told so over whatever was already sent,
and tries again by itself once; a second failure within two minutes waits for a click.

>>> "3 pages ahead of you" in waiting_update(3)
True
>>> "you are next" in waiting_update(0)
True
"""

from __future__ import annotations

import json
from html import escape

from palace.words import plural

_STYLE = """
  body { margin: 0; background: #fafafa; color: #1f2933;
         font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  .palace-door { max-width: 34rem; margin: 14vh auto 0; padding: 2rem 2.2rem;
                 background: #fff; border: 1px solid #d8dee4; border-radius: 10px;
                 box-shadow: 0 2px 10px rgba(0,0,0,.06); text-align: center; }
  .palace-door h1 { font-size: 1.45rem; margin: 0 0 .6rem; }
  .palace-door p { font-size: 1.05rem; line-height: 1.5; margin: .4rem 0; }
  .palace-door .palace-door-line { font-weight: 600; color: #1d6b68; }
  .palace-door button { margin-top: 1rem; font-size: 1rem; padding: .45rem 1.3rem;
                        border-radius: 6px; border: 1px solid #1d6b68; background: #268380;
                        color: #fff; cursor: pointer; }
"""


def waiting_line(ahead: int) -> str:
    """The sentence a waiting page shows."""
    if ahead <= 0:
        return "Starting your page: you are next."
    return f"Starting your page: {plural(ahead, 'page')} ahead of you."


def waiting_prelude(ahead: int | None) -> str:
    """The start of a page that has to wait (None: it waits for its kernel, not in line)."""
    line = "Starting your page…" if ahead is None else waiting_line(ahead)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1.0">'
        f'<title id="palace-wait-title">Palace · starting</title><style>{_STYLE}</style></head>\n'
        # no attributes on <body>: the Voilà page that follows adds its own
        "<body>\n"
        '<div id="palace-wait" class="palace-door" role="status" aria-live="polite">'
        "<h1>Palace is starting</h1>"
        f'<p class="palace-door-line" id="palace-wait-line">{escape(line)}</p>'
        "<p>The class arrived together: pages start a few at a time, in order. "
        "Keep this tab open; it fills in by itself.</p></div>\n"
        "<script>window.palaceWait=function(t){var e=document.getElementById("
        "'palace-wait-line');if(e){e.textContent=t;}};window.palaceWaitDone=function(){"
        "['palace-wait','palace-wait-title'].forEach(function(i){var e=document.getElementById(i);"
        "if(e){e.remove();}});};</script>\n"
    )


def waiting_update(ahead: int) -> str:
    """A script that updates the waiting line (also a heartbeat for the connection)."""
    return f"<script>palaceWait({json.dumps(waiting_line(ahead))})</script>\n"


STARTING_NOW = '<script>palaceWait("Your turn: starting your page now…")</script>\n'
WAITING_DONE = "<script>palaceWaitDone()</script>\n"


def full_page(pages: int, max_pages: int, retry_seconds: int = 60) -> str:
    """The whole "the class is full" page (sent with HTTP 503 and Retry-After)."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1.0">'
        f"<title>Palace · the class is full</title><style>{_STYLE}</style></head>\n"
        '<body><div class="palace-door palace-full" role="alert">'
        "<h1>The class is full</h1>"
        f'<p class="palace-door-line">Palace is serving {plural(pages, "page")} '
        f"right now, as many as this server allows ({max_pages}).</p>"
        "<p>Try again in a minute: a page frees its place a few minutes after its tab is "
        "closed. This page tries again by itself.</p>"
        '<button type="button" onclick="location.reload()">Try again</button>'
        "</div>\n"
        "<script>setTimeout(function(){location.reload();}, "
        f"{retry_seconds * 1000} + Math.floor(Math.random() * 15000));</script>\n"
        "</body></html>\n"
    )


RETRY_AFTER_MS = 3000  # a page that did not start reloads itself after this long
RETRY_SPACING_MS = 120_000  # ... unless it already did so this recently (no reload loop)


def start_failed(text: str) -> str:
    """Laid over the page that did not start: what happened, a button, and one retry.

    >>> 'role="alert"' in start_failed("Palace could not start this page.")
    True
    """
    return (
        f"<style>{_STYLE}"
        "  #palace-failed { position: fixed; inset: 0; z-index: 10000; background: #fafafa;"
        " margin: 0; padding-top: 1px; }</style>\n"
        '<div id="palace-failed"><div class="palace-door" role="alert">'
        "<h1>This page did not start</h1>"
        f'<p class="palace-door-line">{escape(text)}</p>'
        '<p id="palace-failed-next">Trying again in a few seconds…</p>'
        '<button type="button" onclick="location.reload()">Try again now</button>'
        "</div></div>\n"
        # out of whatever Voilà had begun (its cells wait in a hidden block), onto the body
        "<script>(function(){if(window.palaceWaitDone){palaceWaitDone();}"
        "var box=document.getElementById('palace-failed');"
        "if(box&&document.body){document.body.appendChild(box);}"
        "var key='palace-start-retry',now=Date.now(),last=0;"
        "try{last=+(sessionStorage.getItem(key)||0);}catch(e){}"
        f"if(now-last>{RETRY_SPACING_MS}){{"
        "try{sessionStorage.setItem(key,String(now));}catch(e){}"
        f"setTimeout(function(){{location.reload();}},{RETRY_AFTER_MS});}}"
        "else{document.getElementById('palace-failed-next').textContent="
        "'It did not start the last time either: try again in a minute, or tell your "
        "instructor.';}})();</script>\n"
    )
