"""The README, the changelog and the docs' pages: links that lead somewhere, runnable examples.

Sphinx (`make docs`, `make test-docs`) checks the links between the docs' pages as the site
shows them; this file checks them as GitHub shows the Markdown files: every relative link
and image names a file of the repository, and every ``#anchor`` a heading of its page.
Links to other sites are checked for their form only: the network here and in CI reaches
package registries only (see the Makefile's test-docs target).
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(
    [ROOT / "README.md", ROOT / "CHANGELOG.md", *DOCS.glob("*.md"), *DOCS.glob("*/*.md")]
)
README_LINES = 200  # issue 27: a README a newcomer reads in five minutes
IMAGE_BYTES = 300_000  # a docs picture stays small in every clone

_FENCE = re.compile(r"^(```|~~~)")
_INLINE_CODE = re.compile(r"`+[^`]*`+")
_LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^(#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_LABEL = re.compile(r"^\((?P<label>[\w.:-]+)\)=\s*$")


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def outside_fences(text: str) -> list[tuple[int, str]]:
    """The lines of a Markdown text outside fenced code blocks, numbered from 1.

    >>> outside_fences("a\\n```\\n[z](w)\\n```\\nb")
    [(1, 'a'), (5, 'b')]
    """
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code, with inline code removed (a link there is an example).

    >>> prose_lines("a `[x](y)` [z](w)")
    [(1, 'a  [z](w)')]
    """
    return [(number, _INLINE_CODE.sub("", line)) for number, line in outside_fences(text)]


def links(path: Path) -> list[tuple[int, str]]:
    """Every Markdown link and image target of a page (line number, target)."""
    found = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        found.extend((number, m.group("target")) for m in _LINK.finditer(line))
    return found


def slug(title: str) -> str:
    """A heading's anchor as GitHub and MyST make it.

    >>> slug("Serving a class")
    'serving-a-class'
    >>> slug("The class server (`palace/app/server/`)")
    'the-class-server-palaceappserver'
    >>> slug("When to use a JupyterHub instead")
    'when-to-use-a-jupyterhub-instead'
    """
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors a page offers: its headings' slugs and its MyST labels ``(name)=``."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in outside_fences(path.read_text(encoding="utf-8")):
        if heading := _HEADING.match(line.replace("`", "")):
            base = slug(heading.group("title"))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        elif label := _LABEL.match(line):
            found.add(label.group("label"))
    return found


def is_external(target: str) -> bool:
    return bool(urlsplit(target).scheme) or target.startswith("//")


def local_links() -> list[tuple[str, int, str]]:
    return [
        (rel(page), number, target)
        for page in PAGES
        for number, target in links(page)
        if not is_external(target)
    ]


def external_links() -> list[tuple[str, int, str]]:
    return [
        (rel(page), number, target)
        for page in PAGES
        for number, target in links(page)
        if is_external(target)
    ]


def test_the_pages_are_found() -> None:
    names = {rel(page) for page in PAGES}
    assert {"README.md", "CHANGELOG.md", "docs/index.md", "docs/rules.md"} <= names


@pytest.mark.parametrize(("page", "line", "target"), local_links())
def test_relative_link_leads_somewhere(page: str, line: int, target: str) -> None:
    source = ROOT / page
    parts = urlsplit(target)
    where = (source.parent / unquote(parts.path)).resolve() if parts.path else source
    assert where.is_relative_to(ROOT), f"{page}:{line}: {target} leaves the repository"
    assert where.exists(), f"{page}:{line}: {target}: no file {where.relative_to(ROOT)}"
    if parts.fragment:
        assert where.suffix == ".md", f"{page}:{line}: {target}: an anchor into a non-page"
        offered = anchors(where)
        assert parts.fragment in offered, (
            f"{page}:{line}: {target}: {rel(where)} has no heading or label "
            f"'{parts.fragment}' (it has: {', '.join(sorted(offered))})"
        )


def test_external_links_are_well_formed() -> None:
    """Listed, not fetched: each has a scheme of the web and a host name."""
    for page, line, target in external_links():
        parts = urlsplit(target)
        assert parts.scheme in {"http", "https"}, f"{page}:{line}: {target}: not a web link"
        assert parts.hostname and "." in parts.hostname, f"{page}:{line}: {target}: no host"


def test_readme_is_short_and_shows_the_app() -> None:
    readme = ROOT / "README.md"
    lines = readme.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines (at most 200)"
    pictures = [t for _, t in links(readme) if t.startswith("docs/images/")]
    assert "docs/images/app-play.png" in pictures, "the README shows the app's picture"
    for picture in pictures:
        size = (ROOT / picture).stat().st_size
        assert size < IMAGE_BYTES, f"{picture} is {size:,} bytes (keep it under 300 KB)"


def test_readme_links_every_page_a_user_starts_from() -> None:
    targets = {t.partition("#")[0] for _, t in links(ROOT / "README.md")}
    for page in ("lessons", "serving", "teaching", "studies", "agents", "speed", "testing"):
        assert f"docs/{page}.md" in targets, f"the README links docs/{page}.md"
    assert "CHANGELOG.md" in targets


def _examples(page: Path) -> str:
    """The ``pycon`` blocks of a page, as one doctest text."""
    blocks, block = [], None
    for line in page.read_text(encoding="utf-8").splitlines():
        if block is None and line.strip() == "```pycon":
            block = []
        elif block is not None and line.strip() == "```":
            blocks.append("\n".join(block))
            block = None
        elif block is not None:
            block.append(line)
    return "\n\n".join(blocks)


EXAMPLE_PAGES = [page for page in PAGES if _examples(page)]


def test_some_page_has_examples() -> None:
    assert DOCS / "engine.md" in EXAMPLE_PAGES


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=rel)
def test_examples_run_as_shown(page: Path) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(_examples(page), {}, rel(page), str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)


def test_api_page_lists_every_name_palace_exports() -> None:
    """`from palace import X` for each X of ``palace.__all__`` is linked from the API page, at
    the module that defines it (the docs build fails on a link to a name not documented)."""
    import palace

    page = (DOCS / "api" / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"\{py:obj\}`~([\w.]+)`", page))
    for name in palace.__all__:
        where = f"{getattr(palace, name).__module__}.{name}"
        assert where in listed, f"docs/api/index.md does not list {name} ({where})"
