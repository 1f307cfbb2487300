"""Sphinx configuration of Palace's documentation site (`make docs`)."""

from __future__ import annotations

import os
import re
import sys
import warnings
from pathlib import Path

from sphinx.application import Sphinx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Autodoc reads docstrings from the Python source: a module compiled by mypyc shows none.
os.environ["PALACE_PURE"] = "1"

# sphinx_autodoc_typehints calls an API Sphinx 10 will remove; that is the plugin's to fix.
warnings.filterwarnings("ignore", message=".*set_application.*is deprecated")

project = "Palace"
author = "the Palace authors"
copyright = "2026, the Palace authors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx_autodoc_typehints",
    "sphinx_copybutton",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# MyST: `(label)=` targets, ::: fences, and a slug for every heading down to ###, so that
# [text](page.md#a-heading) links are checked by the build (a missing anchor is a warning).
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Every cross-reference into palace must resolve (a warning, and so an error, otherwise).
# References to other libraries stay plain text: the docs are built without network access,
# so there are no intersphinx inventories to resolve them against.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(?!palace\b).*"),
    # private bases and helpers named in a signature (a name with a leading underscore)
    (r"py:.*", r"palace\..*\b_\w+"),
    # the app's tabs and its server are the app's inside, not an API (PalaceApp is)
    (r"py:.*", r"palace\.app\.(?!palace_app\b|deep_links\b).*"),
]

autodoc_default_options = {
    "members": True,
    # each name is documented once, in the module that defines it (not where it is re-exported)
    "ignore-module-all": True,
    "member-order": "bysource",
    "show-inheritance": False,
}
autodoc_typehints = "description"
autodoc_preserve_defaults = True
typehints_fully_qualified = False
always_document_param_types = False

html_theme = "pydata_sphinx_theme"
html_title = "Palace"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "navbar_align": "left",
    "header_links_before_dropdown": 4,
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_show_sourcelink = False

# Palace's docstrings are plain text read in a terminal as much as here: `name` marks code,
# `RuleBot`s or `freeze`d glue a suffix to it and |n| is an absolute value. reStructuredText
# reads the last two as broken markup and a substitution, so they are escaped on the way in.
_GLUED_SUFFIX = re.compile(r"(`[^`\s][^`]*`)(?=[A-Za-z])")
_ABSOLUTE = re.compile(r"\|(\w+)\|")


def _plain_text_docstring(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    for i, line in enumerate(lines):
        lines[i] = _ABSOLUTE.sub(r"\\|\1\\|", _GLUED_SUFFIX.sub(r"\1\\ ", line))


def setup(app: Sphinx) -> None:
    # before sphinx_autodoc_typehints (priority 500) reads the docstring
    app.connect("autodoc-process-docstring", _plain_text_docstring, priority=100)


# A page with no pages under it has no section to show in the left sidebar: the API pages do.
html_sidebars = {
    page: []
    for page in (
        "index",
        "start",
        "lessons",
        "serving",
        "teaching",
        "studies",
        "agents",
        "rules",
        "scenarios",
        "engine",
        "speed",
        "architecture",
        "testing",
        "changelog",
    )
}
