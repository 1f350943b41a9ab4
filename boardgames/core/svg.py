"""SVG pictures with the standard library only: the picture type, escaping, elements, and
the two charts the toolkit draws (an evaluation graph and bars on a log scale).

A picture is an :class:`SVG`, a ``str`` holding one whole ``<svg>`` document: it prints and
saves as text, and shows itself in Jupyter (``_repr_svg_``). Every part of a picture has
a CSS class (and the numbers it shows as ``data-*`` attributes), so that a page can theme
it with its own stylesheet and a test can read it back with ``xml.etree``.

Games draw their boards with these helpers (``boardgames/<game>/svg.py``); this module
knows no game.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from boardgames.core.files import WriteFailed, write_atomic

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', Helvetica, Arial, sans-serif"

Attr = str | int | float | bool | None


class SVG(str):
    """A whole SVG document as text; shows itself as a picture in Jupyter."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return str(self)

    def save(self, path: Path | str) -> None:
        """Write the picture to ``path`` whole or not at all (:class:`WriteFailed`, one
        line, when it cannot be written)."""
        write_svg(path, self)


def write_svg(path: Path | str, picture: str, what: str = "the picture") -> None:
    """Write ``picture`` (UTF-8) to ``path`` atomically; :class:`WriteFailed` (status 1,
    one line) when that fails."""
    try:
        write_atomic(path, picture.encode("utf-8"))
    except OSError as e:
        raise WriteFailed(f"cannot write {what} to {path}: {e.strerror or e}") from None


# --- text and elements -------------------------------------------------------------------


def escape(text: object) -> str:
    """``text`` safe inside an element or a double-quoted attribute. Characters XML 1.0
    forbids (control characters) are dropped."""
    s = str(text)
    s = "".join(ch for ch in s if ch in "\t\n\r" or ord(ch) >= 0x20)
    return (
        s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def num(x: float) -> str:
    """A coordinate in few characters: ``12``, ``12.5``, ``0.33``."""
    if isinstance(x, int) or float(x).is_integer():
        return str(int(x))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def attrs(values: Mapping[str, Attr]) -> str:
    """Attributes as text: ``class_`` is ``class``, other underscores become hyphens
    (``data_pit`` is ``data-pit``); None and False are left out, True is the name itself."""
    out = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        if value is True:
            text = name
        elif isinstance(value, float):
            text = num(value)
        else:
            text = escape(value)
        out.append(f' {name}="{text}"')
    return "".join(out)


def el(tag: str, *children: str | None, **attributes: Attr) -> str:
    """One element: ``el("circle", cx=1, cy=2, r=3, class_="stone")``. Children are
    markup already (other elements, or :func:`escape`d text); None children are skipped."""
    inner = "".join(c for c in children if c)
    if not inner:
        return f"<{tag}{attrs(attributes)}/>"
    return f"<{tag}{attrs(attributes)}>{inner}</{tag}>"


def text(content: object, x: float, y: float, **attributes: Attr) -> str:
    """A ``<text>`` element with escaped content."""
    return el("text", escape(content), x=float(x), y=float(y), **attributes)


def title(content: object) -> str:
    """A ``<title>``: the tooltip of its parent element."""
    return el("title", escape(content))


def overlay(tag: str, *children: str | None, **attributes: Attr) -> str:
    """An element drawn over a board that clicks go through (``pointer-events="none"``):
    marks, rings and arrows never hide the ``data-move`` element under them."""
    return el(tag, *children, **attributes, pointer_events="none")


MARK_COLOURS = {
    "best": "#2dc653",
    "hint": "#339af0",
    "threat": "#f08c00",
    "win": "#e03131",
    "arrow": "#7048e8",
}
"""The colour of each kind of mark (:data:`boardgames.core.capabilities.MARK_KINDS`)."""
LAST_COLOUR = "#ffb703"
"""The colour of the last move's marker."""


def mark_style(rule: str) -> str:
    """CSS for every kind of mark: ``rule`` with ``{kind}`` and ``{colour}`` filled in,
    such as ``".mark-{kind} .ring {{ stroke: {colour}; }}"``."""
    return "\n".join(rule.format(kind=k, colour=c) for k, c in MARK_COLOURS.items())


def document(
    width: float,
    height: float,
    body: Iterable[str],
    *,
    label: str,
    style: str = "",
    **attributes: Attr,
) -> SVG:
    """A whole ``<svg>`` document ``width`` x ``height`` (also its viewBox), with ``label``
    as its accessible title and ``style`` as its stylesheet."""
    parts = [title(label)]
    if style:
        parts.append(f"<style>{style}</style>")
    parts.extend(body)
    root = el(
        "svg",
        *parts,
        xmlns=SVG_NS,
        width=float(width),
        height=float(height),
        viewBox=f"0 0 {num(width)} {num(height)}",
        role="img",
        **attributes,
    )
    return SVG(root + "\n")


# --- evaluation graph --------------------------------------------------------------------

KINDS = ("exact", "estimate", "lower", "upper")
"""How a point's value is known: exact; a depth-limited estimate; a bound (the true value
is at least / at most it)."""


@dataclass(frozen=True)
class EvalPoint:
    """One move in an evaluation graph: its number, its series (the player who moved),
    the value after it for that player, how the value is known (:data:`KINDS`), a mark
    (``"mistake"``, ``"inaccuracy"``, or None) and a tooltip."""

    move: int
    series: int
    value: float
    kind: str = "exact"
    mark: str | None = None
    loss: float = 0
    note: str = ""
    data: tuple[tuple[str, str], ...] = ()


GRAPH_STYLE = f"""
svg {{ font-family: {FONT}; font-size: 12px; }}
.background {{ fill: #fcfcfa; }}
.heading {{ font-size: 15px; font-weight: 600; fill: #222; }}
.axis text, .legend text {{ fill: #555; }}
.axis-title {{ fill: #555; font-size: 12px; }}
.grid line {{ stroke: #e4e4e0; }}
.grid line.zero {{ stroke: #9a9a94; stroke-width: 1.2; }}
.band.mistake {{ fill: #d7301f; opacity: 0.10; }}
.band.inaccuracy {{ fill: #f0a202; opacity: 0.12; }}
.series-0 {{ --c: #2a6fb0; }}
.series-1 {{ --c: #c2561a; }}
.line {{ fill: none; stroke: var(--c); stroke-width: 2; }}
.line.estimate {{ stroke-dasharray: 5 4; stroke-width: 1.6; }}
.point .marker {{ stroke: var(--c); stroke-width: 1.8; fill: var(--c); }}
.point.estimate .marker, .point.lower .marker, .point.upper .marker {{ fill: #fff; }}
.point .ring {{ fill: none; stroke-width: 2.4; }}
.point.mistake .ring {{ stroke: #d7301f; }}
.point.inaccuracy .ring {{ stroke: #f0a202; }}
.point .loss {{ font-size: 11px; font-weight: 600; text-anchor: middle; }}
.point.mistake .loss {{ fill: #b3200f; }}
.point.inaccuracy .loss {{ fill: #a66f00; }}
.legend .swatch {{ stroke: var(--c); fill: var(--c); stroke-width: 1.8; }}
.legend .hollow {{ fill: #fff; stroke: #555; stroke-width: 1.6; }}
.legend .solid {{ fill: #555; stroke: #555; stroke-width: 1.6; }}
.legend .ring.mistake {{ fill: none; stroke: #d7301f; stroke-width: 2.4; }}
.legend .ring.inaccuracy {{ fill: none; stroke: #f0a202; stroke-width: 2.4; }}
"""


def nice_step(span: float, target: int) -> float:
    """A round step (1, 2, 5 times a power of ten) cutting ``span`` into about ``target``."""
    raw = max(span, 1e-9) / max(target, 1)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return float(m * power)
    return float(10 * power)  # pragma: no cover


def _move_labels(lo: int, hi: int, spacing: float) -> list[int]:
    """The moves to number on the x axis: all of them when there is room, else the
    first, round multiples of a step (2, 5, 10, 20, 25, 50, ...) at least ``spacing``
    moves apart, and the last when it does not crowd the one before."""
    if spacing <= 1:
        return list(range(lo, hi + 1))
    step = next(s * 10**k for k in range(12) for s in (1, 2, 5) if s * 10**k >= spacing)
    moves = [lo] + [m for m in range(lo + 1, hi + 1) if m % step == 0 and m - lo >= 0.6 * step]
    if hi - moves[-1] >= 0.6 * step:
        moves.append(hi)
    return moves


def _marker(kind: str, x: float, y: float, r: float) -> str:
    if kind == "lower":  # at least: a triangle pointing up
        pts = [(x, y - r * 1.3), (x - r * 1.15, y + r * 0.75), (x + r * 1.15, y + r * 0.75)]
    elif kind == "upper":  # at most: pointing down
        pts = [(x, y + r * 1.3), (x - r * 1.15, y - r * 0.75), (x + r * 1.15, y - r * 0.75)]
    else:
        return el("circle", cx=x, cy=y, r=r, class_="marker")
    return el("polygon", points=" ".join(f"{num(a)},{num(b)}" for a, b in pts), class_="marker")


def evaluation_graph(
    points: Sequence[EvalPoint],
    *,
    series: Sequence[str],
    heading: str,
    y_title: str = "value for the side that moved",
    x_title: str = "move",
    width: int = 760,
    height: int = 380,
) -> SVG:
    """The value after every move, one line per series (each from its own side): exact
    values solid and filled, depth-limited estimates dashed and hollow, bounds as
    triangles (up: at least, down: at most); marked moves ringed, banded and labelled
    with what they lost. Every point is a ``<g class="point ...">`` with ``data-move``,
    ``data-value``, ``data-kind`` and ``data-mark``."""
    left, right, top, bottom = 62.0, 22.0, 70.0, 46.0
    plot_w, plot_h = width - left - right, height - top - bottom
    moves = [p.move for p in points] or [1]
    lo_move, hi_move = min(moves), max(moves)
    values = [p.value for p in points] or [0.0]
    extent = max(2.0, max(abs(v) for v in values))
    step = nice_step(2 * extent, 6)
    extent = math.ceil(extent / step) * step
    if max(abs(v) for v in values) > extent - step * 0.25:
        extent += step  # room for the loss labels above and below
    x_span = max(1, hi_move - lo_move)
    pad_x = plot_w / (x_span + 1) / 2 if x_span < 40 else 6.0

    def xs(move: float) -> float:
        return left + pad_x + (move - lo_move) * (plot_w - 2 * pad_x) / x_span

    def ys(value: float) -> float:
        return top + (extent - value) * plot_h / (2 * extent)

    # the legend: series, then kinds, then marks, wrapped onto more lines when needed
    items: list[tuple[float, str]] = []  # (width, markup drawn at x = 0, baseline 0)
    for k, name in enumerate(series):
        items.append(
            (
                30 + 6.4 * len(name),
                el(
                    "g",
                    el("line", x1=0, y1=-4, x2=18, y2=-4, class_="line"),
                    el("circle", cx=9, cy=-4, r=3.5, class_="swatch"),
                    text(name, 24, 0),
                    class_=f"series-{k}",
                ),
            )
        )
    for cls, shape, label in (
        ("solid", "circle", "exact"),
        ("hollow", "circle", "depth-limited"),
        ("hollow", "lower", "at least"),
        ("hollow", "upper", "at most"),
    ):
        mark = (
            el("circle", cx=5, cy=-4, r=4, class_=cls)
            if shape == "circle"
            else el("g", _marker(shape, 5, -4, 4.2), class_=cls)
        )
        items.append((20 + 6.4 * len(label), mark + text(label, 14, 0)))
    for name in ("mistake", "inaccuracy"):
        ring = el("circle", cx=6, cy=-4, r=6, class_=f"ring {name}")
        items.append((22 + 6.4 * len(name), ring + text(name, 16, 0)))
    legend: list[str] = []
    lx, ly = 16.0, 48.0
    for w, markup in items:
        if lx + w > width - 8 and lx > 16:
            lx, ly = 16.0, ly + 18
        legend.append(el("g", markup, transform=f"translate({num(lx)} {num(ly)})"))
        lx += w + 8
    shift = ly - 48.0
    top += shift
    height += int(shift)
    plot_h = height - top - bottom
    body = [el("rect", x=0, y=0, width=width, height=height, class_="background")]
    body.append(text(heading, 16, 24, class_="heading"))
    body.append(el("g", *legend, class_="legend"))
    # bands behind the marked moves
    col = (plot_w - 2 * pad_x) / x_span
    band_w = max(6.0, min(col * 0.9, 28.0))
    for p in points:
        if p.mark:
            body.append(
                el(
                    "rect",
                    x=xs(p.move) - band_w / 2,
                    y=top,
                    width=band_w,
                    height=plot_h,
                    class_=f"band {p.mark}",
                )
            )
    # grid and axes
    grid: list[str] = []
    axis: list[str] = []
    v = -extent
    while v <= extent + 1e-9:
        y = ys(v)
        grid.append(
            el("line", x1=left, y1=y, x2=width - right, y2=y, class_="zero" if v == 0 else None)
        )
        label = f"{v:+g}" if v else "0"
        axis.append(text(label, left - 8, y + 4, text_anchor="end"))
        v += step
    for m in _move_labels(lo_move, hi_move, 26 / max(col, 1e-9)):
        x = xs(m)
        grid.append(el("line", x1=x, y1=top, x2=x, y2=top + plot_h, class_="vertical"))
        axis.append(text(m, x, top + plot_h + 16, text_anchor="middle", class_="move-number"))
    body.append(el("g", *grid, class_="grid"))
    axis.append(
        text(x_title, left + plot_w / 2, height - 8, text_anchor="middle", class_="axis-title")
    )
    axis.append(
        text(
            y_title,
            16,
            top + plot_h / 2,
            text_anchor="middle",
            transform=f"rotate(-90 16 {num(top + plot_h / 2)})",
            class_="axis-title",
        )
    )
    body.append(el("g", *axis, class_="axis"))
    # lines: one per series, a segment dashed unless both ends are exact
    for k in range(len(series)):
        own = [p for p in points if p.series == k]
        segments = []
        for a, b in itertools.pairwise(own):
            kind = "exact" if a.kind == b.kind == "exact" else "estimate"
            segments.append(
                el(
                    "line",
                    x1=xs(a.move),
                    y1=ys(a.value),
                    x2=xs(b.move),
                    y2=ys(b.value),
                    class_=f"line {kind}",
                )
            )
        body.append(el("g", *segments, class_=f"series series-{k}"))
    # points on top
    r = 4.5 if col >= 12 else 3.2
    for p in points:
        x, y = xs(p.move), ys(p.value)
        parts = [title(p.note) if p.note else None, _marker(p.kind, x, y, r)]
        if p.mark:
            parts.append(el("circle", cx=x, cy=y, r=r + 5, class_="ring"))
            ly = y - r - 10 if p.value >= 0 else y + r + 18
            parts.append(text(f"−{num(p.loss)}", x, ly, class_="loss"))
        extra = {f"data_{k}": v for k, v in p.data}
        body.append(
            el(
                "g",
                *parts,
                class_=" ".join(
                    c for c in ("point", f"series-{p.series}", p.kind, p.mark or "") if c
                ),
                data_move=p.move,
                data_series=series[p.series] if p.series < len(series) else p.series,
                data_value=num(p.value),
                data_kind=p.kind,
                data_mark=p.mark or "",
                data_loss=num(p.loss),
                **extra,
            )
        )
    return document(
        width, height, body, label=heading, style=GRAPH_STYLE, class_="evaluation-graph"
    )


# --- bars on a log scale ----------------------------------------------------------------

BAR_STYLE = f"""
svg {{ font-family: {FONT}; font-size: 12px; }}
.background {{ fill: #fcfcfa; }}
.heading {{ font-size: 14px; font-weight: 600; fill: #222; }}
.panel-title {{ fill: #444; font-weight: 600; }}
.label {{ fill: #333; }}
.tick {{ fill: #666; font-size: 11px; }}
.grid line {{ stroke: #e4e4e0; }}
.bar {{ fill: #2a6fb0; }}
.bar.python {{ fill: #e08a2c; }}
.value {{ fill: #333; font-size: 11px; }}
"""


@dataclass(frozen=True)
class Bar:
    """One row of a bar chart: its label, its CSS class (such as the engine) and its
    value in each panel."""

    label: str
    values: tuple[float, ...]
    kind: str = ""


def _fmt_value(v: float, seconds: bool = False) -> str:
    if seconds and v < 1:
        return f"{v * 1e3:.3g} ms" if v >= 1e-3 else f"{v * 1e6:.3g} µs"
    if v >= 1e6:
        return f"{v:.3g}" + (" s" if seconds else "")
    if v >= 100:
        return f"{v:,.0f}" + (" s" if seconds else "")
    return f"{v:.3g}" + (" s" if seconds else "")


def _fmt_tick(v: float, seconds: bool) -> str:
    if seconds:
        return _fmt_value(v, True)
    return f"{v:,.0f}" if v >= 1 else f"{v:g}"


def log_bars(bars: Sequence[Bar], panels: Sequence[str], *, heading: str, width: int = 900) -> SVG:
    """Horizontal bars on a log scale, one panel per value of a bar (such as CPU seconds
    and positions visited), the bars' labels on the left, first bar on top."""
    label_w = min(300, 24 + 7 * max((len(b.label) for b in bars), default=4))
    row_h, top, bottom, gap, right = 24, 64, 30, 60, 40
    height = top + row_h * max(1, len(bars)) + bottom
    panel_w = (width - label_w - right - gap * (len(panels) - 1)) / max(1, len(panels))
    body = [el("rect", x=0, y=0, width=width, height=height, class_="background")]
    body.append(text(heading, 12, 22, class_="heading"))
    kinds = list(dict.fromkeys(b.kind for b in bars if b.kind))
    if len(kinds) > 1:  # say what the colours are
        kx = float(width - right)
        for kind in reversed(kinds):
            kx -= 26 + 7 * len(kind)
            body.append(
                el(
                    "g",
                    el("rect", x=kx, y=32, width=12, height=12, rx=2, class_=f"bar {kind}"),
                    text(kind, kx + 17, 42, class_="label"),
                    class_="legend",
                )
            )
    for k, b in enumerate(bars):
        y = top + k * row_h + row_h / 2 + 4
        body.append(text(b.label, label_w - 8, y, text_anchor="end", class_="label"))
    for j, name in enumerate(panels):
        x0 = label_w + j * (panel_w + gap)
        vals = [max(b.values[j], 1e-9) for b in bars] or [1.0]
        lo = 10 ** math.floor(math.log10(min(vals)))
        hi = 10 ** math.ceil(math.log10(max(vals) * 4))  # room for the value label
        if hi <= lo:
            hi = lo * 10
        span = math.log10(hi) - math.log10(lo)

        def xs(v: float, x0: float = x0, lo: float = lo, span: float = span) -> float:
            return x0 + (math.log10(max(v, lo)) - math.log10(lo)) / span * panel_w

        seconds = "seconds" in name
        parts = [text(f"{name} (log scale)", x0, top - 12, class_="panel-title")]
        grid = []
        decade = lo
        while decade <= hi * 1.0001:
            x = xs(decade)
            grid.append(el("line", x1=x, y1=top, x2=x, y2=height - bottom))
            parts.append(
                text(
                    _fmt_tick(decade, seconds),
                    x,
                    height - bottom + 14,
                    text_anchor="middle",
                    class_="tick",
                )
            )
            decade *= 10
        parts.insert(0, el("g", *grid, class_="grid"))
        for k, b in enumerate(bars):
            v = max(b.values[j], 1e-9)
            y = top + k * row_h + 4
            w = max(1.0, xs(v) - x0)
            parts.append(
                el(
                    "rect",
                    title(f"{b.label}: {_fmt_value(b.values[j], seconds)} ({name})"),
                    x=x0,
                    y=y,
                    width=w,
                    height=row_h - 8,
                    rx=2,
                    class_=f"bar {b.kind}".strip(),
                    data_label=b.label,
                    data_value=repr(float(b.values[j])),
                )
            )
            parts.append(
                text(_fmt_value(b.values[j], seconds), x0 + w + 4, y + row_h / 2, class_="value")
            )
        body.append(el("g", *parts, class_="panel", data_panel=name))
    return document(width, height, body, label=heading, style=BAR_STYLE, class_="bar-chart")
