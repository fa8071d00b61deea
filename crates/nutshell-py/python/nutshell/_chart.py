"""A distribution as an inline SVG bar chart: what a notebook shows under a
cell (``Distribution._repr_html_``). Plain SVG, no JavaScript, no external
file: it renders wherever HTML does (Jupyter, VS Code, a saved notebook)."""

from __future__ import annotations

import html
import math
from typing import Any, List, Optional, Protocol

from ._fractions import percent, probability_text


class Charted(Protocol):
    """What the chart reads of a distribution (``_odds.Distribution`` is
    one); named here so that this module needs nothing from ``_odds``,
    which imports it."""

    _values: List[int]
    _native: Any

    @property
    def expression(self) -> Optional[str]: ...

    @property
    def mean(self) -> Any: ...

    @property
    def std_dev(self) -> float: ...

    @property
    def tail(self) -> Any: ...

WIDTH = 640
HEIGHT = 280
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 44, 40
BAR = "#4a7ab5"
#: Most bars drawn: a distribution over more values is drawn in this many
#: columns, each as high as the likeliest value in it.
MAX_BARS = 600
MEAN = "#c0392b"


def _nice_step(span: float, ticks: int) -> float:
    """A step of 1, 2 or 5 times a power of ten giving about ``ticks`` ticks."""
    raw = span / max(ticks, 1)
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return m * power
    return 10 * power


def svg(dist: Charted) -> str:
    """The chart: one bar per value (its probability), the mean marked, the
    axes labelled; each bar's tooltip gives the exact fraction when short.

    >>> import nutshell
    >>> chart = nutshell.odds("2d6")._repr_html_()
    >>> chart.startswith("<svg") and chart.count('class="bar"') == 11
    True
    >>> "<script" in chart
    False
    >>> wide = nutshell.odds("1d3000 + 1d3")._repr_html_()   # 3002 values
    >>> wide.count('class="bar"') <= MAX_BARS
    True
    """
    values: List[int] = dist._values
    floats: List[float] = dist._native.floats()
    title = html.escape(dist.expression or "(given by its weights)")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11" '
        f'role="img" aria-label="exact odds of {title}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
    ]
    if not values:
        out.append(f'<text x="{LEFT}" y="{TOP}">{title}: every roll is in the tail</text></svg>')
        return "".join(out)
    lo, hi = values[0], values[-1]
    peak = max(floats) or 1.0
    columns = hi - lo + 1 > MAX_BARS
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    slots = hi - lo + 1
    slot = plot_w / slots
    gap = slot * 0.15 if slot > 4 else 0.0
    # y: probability, ticks at nice percentages up to the peak.
    y_top = peak * 1.05
    step = _nice_step(y_top * 100, 5) / 100
    y = 0.0
    while y <= y_top + 1e-12:
        py_ = TOP + plot_h - y / y_top * plot_h
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{py_:.1f}" y2="{py_:.1f}" '
            f'stroke="#e4e4e4"/>'
            f'<text x="{LEFT - 6}" y="{py_ + 4:.1f}" text-anchor="end" fill="#444">'
            f"{y * 100:.{max(0, -math.floor(math.log10(step * 100)))}f}%</text>"
        )
        y += step
    # Bars, with the exact probability as a tooltip when it is short.
    short = len(values) <= 400
    bars = list(zip(values, floats))
    bar_w = slot
    if columns:
        # Each column spans `width` values and is as high as its likeliest.
        width = (hi - lo + MAX_BARS) // MAX_BARS
        tallest: dict = {}
        for v, f in bars:
            c = lo + (v - lo) // width * width
            tallest[c] = max(tallest.get(c, 0.0), f)
        bars = sorted(tallest.items())
        bar_w = slot * width
        gap = 0.0
    crisp = ' shape-rendering="crispEdges"' if gap == 0 else ""
    for v, f in bars:
        x = LEFT + (v - lo) * slot + gap / 2
        h = f / y_top * plot_h
        tip = ""
        if short:
            p = dist[v]
            text = probability_text(p)
            exact = f" = {text}" if len(text) <= 40 else ""
            tip = f"<title>{v}: {percent(f)}{html.escape(exact)}</title>"
        out.append(
            f'<rect class="bar" x="{x:.2f}" y="{TOP + plot_h - h:.2f}" '
            f'width="{max(bar_w - gap, 0.5):.2f}" height="{h:.2f}" fill="{BAR}"{crisp}>{tip}</rect>'
        )
    # x ticks at nice values.
    xstep = max(1, int(_nice_step(hi - lo, 10)))
    first = math.ceil(lo / xstep) * xstep
    for v in range(first, hi + 1, xstep):
        x = LEFT + (v - lo + 0.5) * slot
        out.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP + plot_h}" y2="{TOP + plot_h + 4}" stroke="#444"/>'
            f'<text x="{x:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle" fill="#444">{v}</text>'
        )
    out.append(
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_h}" y2="{TOP + plot_h}" stroke="#444"/>'
    )
    # The mean.
    mean = float(dist.mean)
    mx = LEFT + (mean - lo + 0.5) * slot
    out.append(
        f'<line x1="{mx:.1f}" x2="{mx:.1f}" y1="{TOP - 2}" y2="{TOP + plot_h}" stroke="{MEAN}" '
        f'stroke-dasharray="4 3"/>'
        f'<text x="{mx:.1f}" y="{TOP - 4}" text-anchor="middle" fill="{MEAN}">mean {mean:.4g}</text>'
    )
    subtitle = f"exact odds, {len(values)} values, sd {dist.std_dev:.4g}"
    if columns:
        subtitle += f", {len(bars)} columns (the likeliest value of each)"
    tail = dist.tail
    if tail:
        subtitle += f", tail {float(tail):.3g} not shown"
    out.append(
        f'<text x="{LEFT}" y="16" font-size="13" font-weight="bold" fill="#222">{title}</text>'
        f'<text x="{WIDTH - RIGHT}" y="16" text-anchor="end" fill="#666">{html.escape(subtitle)}</text>'
        f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle" fill="#444">total</text>'
        "</svg>"
    )
    return "".join(out)
