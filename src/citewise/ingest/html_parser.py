"""HTML backend on selectolax: headings, paragraphs, list items (ordered lists numbered),
tables whole; navigation, scripts and page chrome dropped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from citewise.errors import CorruptFile, EmptyDocument
from citewise.ingest.base import PageCallback, Parser
from citewise.ingest.decode import decode_text
from citewise.ingest.layout import LayoutBuilder
from citewise.types import Layout

_DROP = ["script", "style", "noscript", "nav", "footer", "aside", "form", "button", "svg", "template"]
_HEAD = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_LEAF = {"p", "dt", "dd", "pre", "caption", "figcaption", "address", "summary"}
_LABELLED = re.compile(r"^(\(?[0-9]{1,3}[.)]|\(?[a-zđ][.)]|\([ivxlc]{1,5}\)|\([a-z]{1,2}\))\s", re.I)
_BLOCKS = _LEAF | set(_HEAD) | {"li", "ul", "ol", "table", "div", "section", "article", "main", "blockquote", "dl"}


MAX_DEPTH = 2_000
"""Elements nested deeper than this are refused before parsing: the HTML parser takes time quadratic in the
depth (36 s for 100,000 levels) and the layout walk could not follow them anyway."""
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)[^>]*?(/?)>")
_UNNESTED = {
    # void elements, and elements whose end tag may be left out (a page of unclosed <p> or <li> is not deep)
    *"area base br col embed hr img input link meta param source track wbr".split(),
    *"p li dt dd tr td th option optgroup thead tbody tfoot colgroup rb rt rp html head body".split(),
}


def nesting_depth(html: str, limit: int = MAX_DEPTH) -> int:
    """How deep the elements of ``html`` nest, counted from its tags (stops counting past ``limit``)."""
    depth = deepest = 0
    for m in _TAG.finditer(html):
        if m.group(3) or m.group(2).lower() in _UNNESTED:
            continue
        depth = max(0, depth - 1) if m.group(1) else depth + 1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                break
    return deepest


def _letter(n: int, upper: bool) -> str:
    s = "abcdefghijklmnopqrstuvwxyz"[(n - 1) % 26]
    return s.upper() if upper else s


class HtmlParser(Parser):
    name = "html"
    fmt = "html"
    extensions = (".html", ".htm", ".xhtml")

    def parse(self, path: Path, on_page: PageCallback | None = None) -> Layout:
        text, _ = decode_text(path.read_bytes())
        return self.parse_text(text)

    def parse_text(self, html: str) -> Layout:
        from selectolax.lexbor import LexborHTMLParser

        if nesting_depth(html) > MAX_DEPTH:
            raise CorruptFile(f"nested too deeply to read (more than {MAX_DEPTH:,} levels of elements)")
        tree = LexborHTMLParser(html)
        title_node = tree.css_first("title")
        title = title_node.text(strip=True) if title_node is not None else ""
        tree.strip_tags(_DROP)
        for header in tree.css("header"):  # a site banner, unless it heads the document itself
            parent, inside = header.parent, False
            while parent is not None:
                inside = inside or parent.tag in ("main", "article")
                parent = parent.parent
            if not inside:
                header.decompose()
        root = tree.body or tree.root
        b = LayoutBuilder()
        if root is not None:
            self._walk(root, b)
        layout = b.build()
        if not layout.text.strip():
            raise EmptyDocument("the HTML page holds no text")
        if title and not layout.title_hint:
            layout.title_hint = title
        return layout

    def _walk(self, node: Any, b: LayoutBuilder) -> None:
        inline: list[str] = []

        def flush() -> None:
            if inline:
                b.add(" ".join(inline))
                inline.clear()

        for child in node.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                t = child.text_content
                if t and t.strip():
                    inline.append(t.strip())
                continue
            if tag not in _BLOCKS and tag != "br":
                t = child.text(separator=" ")
                if t and t.strip():
                    inline.append(t.strip())
                continue
            if tag == "br":
                flush()
                continue
            flush()
            if tag in _HEAD:
                b.add(child.text(separator=" "), "heading", level=_HEAD[tag])
            elif tag in _LEAF:
                b.add(child.text(separator=" "))
            elif tag == "table":
                self._table(child, b)
            elif tag in ("ol", "ul"):
                self._list(child, b)
            else:
                self._walk(child, b)
        flush()

    def _list(self, node: Any, b: LayoutBuilder) -> None:
        ordered = node.tag == "ol"
        kind = (node.attributes.get("type") or "1") if ordered else ""
        n = int(node.attributes.get("start") or 1) if ordered else 0
        for li in node.iter():
            if li.tag != "li":
                continue
            if ordered:
                if kind in ("a", "A"):
                    mark = f"({_letter(n, kind == 'A')})"
                elif kind in ("i", "I"):
                    mark = f"({'i' * n if n < 4 else str(n)})"
                else:
                    mark = f"{n}."
                n += 1
            else:
                mark = ""
            if mark and _LABELLED.match(li.text(separator=" ").strip()):
                mark = ""  # the item writes its own label ("(a) ...", "1. ...")
            nested = [c for c in li.iter() if c.tag in ("ol", "ul", "table", "p", "div")]
            if not nested:
                b.add(f"{mark} {li.text(separator=' ')}".strip(), "list_item")
                continue
            own = [c.text_content.strip() for c in li.iter(include_text=True) if c.tag == "-text" and c.text_content]
            first = f"{mark} {' '.join(x for x in own if x)}".strip()
            if first:
                b.add(first, "list_item")
            for c in nested:
                if c.tag in ("ol", "ul"):
                    self._list(c, b)
                elif c.tag == "table":
                    self._table(c, b)
                else:
                    self._walk(c, b)

    def _table(self, node: Any, b: LayoutBuilder) -> None:
        rows: list[list[str]] = []
        for tr in node.css("tr"):
            cells = [c.text(separator=" ") for c in tr.iter() if c.tag in ("td", "th")]
            if cells:
                rows.append(cells)
        caption = node.css_first("caption")
        if caption is not None:
            b.add(caption.text(separator=" "))
        b.add_table(rows)
