"""A self-contained HTML page from the validator (error per node along the
network) and the profiler (time per operator): inline SVG, no script, no
network, so it opens anywhere and can be attached to a CI run."""

from __future__ import annotations

import html
import math
from typing import Any

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { border-bottom: 1px solid #ddd; padding: 2px 8px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.bad td { background: #fde2e2; } .ok { color: #1a7f37; } .fail { color: #c62828; }
svg text { font-size: 11px; }
"""


def _esc(value: Any) -> str:
    return html.escape(str(value))


def _error_chart(report: Any) -> str:
    """log10 of each node's worst relative error (to its tolerance's scale),
    in graph order; the first divergence in red."""
    nodes = report.nodes
    if not nodes:
        return "<p>No intermediates to chart.</p>"
    width, height, left, bottom = 900, 260, 50, 30
    values = []
    for n in nodes:
        c = n.comparison
        scale = max(1.0, abs(c.expected.max), abs(c.expected.min))
        err = c.max_abs_error / scale if math.isfinite(c.max_abs_error) else 1.0
        values.append(math.log10(max(err, 1e-12)))
    low, high = min(-8.0, min(values)), max(0.0, max(values))
    step = (width - left - 10) / max(len(values), 1)

    def y(v: float) -> float:
        return 10 + (high - v) / (high - low) * (height - bottom - 10)

    parts = [(f'<svg width="{width}" height="{height}" role="img" '
              'aria-label="error per node along the network">')]
    for tick in range(math.ceil(low), math.floor(high) + 1, 2):
        parts.append(f'<line x1="{left}" x2="{width - 10}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
                     'stroke="#eee"/>')
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">1e{tick}</text>')
    first = report.first_divergence
    for i, (n, v) in enumerate(zip(nodes, values)):
        bad = first is not None and n.debug_handle == first.debug_handle
        color = "#c62828" if bad else ("#e69f00" if not n.comparison.within_tolerance else "#0072b2")
        x = left + i * step
        parts.append(f'<rect x="{x:.1f}" y="{y(v):.1f}" width="{max(step - 1, 1):.1f}" '
                     f'height="{max(height - bottom - y(v), 1):.1f}" fill="{color}">'
                     f'<title>{_esc(n.node)} ({_esc(n.op)}) {_esc(n.source)}: '
                     f'max |diff| {n.comparison.max_abs_error:.3g}</title></rect>')
    parts.append(f'<text x="{left}" y="{height - 8}">nodes in graph order ({len(nodes)}); '
                 'bar: max |diff| / max(1, max |eager|), log scale</text></svg>')
    return "".join(parts)


def _sqnr_chart(layers: list[Any]) -> str:
    width, bar = 900, 16
    finite = [layer.sqnr_db for layer in layers if math.isfinite(layer.sqnr_db)]
    top = max(finite + [40.0])
    parts = [f'<svg width="{width}" height="{bar * len(layers) + 20}">']
    for i, layer in enumerate(layers):
        value = layer.sqnr_db if math.isfinite(layer.sqnr_db) else top
        w = max(value, 0.0) / top * (width - 320)
        color = "#c62828" if layer.flagged else "#0072b2"
        parts.append(f'<text x="0" y="{i * bar + 12}">{_esc(layer.name[:40])}</text>'
                     f'<rect x="300" y="{i * bar + 2}" width="{w:.1f}" height="{bar - 4}" '
                     f'fill="{color}"/><text x="{305 + w:.1f}" y="{i * bar + 12}">'
                     f'{layer.sqnr_db:.1f} dB</text>')
    parts.append("</svg>")
    return "".join(parts)


def _profile_chart(profile: Any, limit: int = 40) -> str:
    rows = profile.rows[:limit]
    if not rows:
        return "<p>No events.</p>"
    width, bar = 900, 16
    top = max(r.ms_per_run for r in rows) or 1.0
    parts = [f'<svg width="{width}" height="{bar * len(rows) + 20}">']
    for i, r in enumerate(rows):
        w = r.ms_per_run / top * (width - 420)
        label = f"{r.op} {r.source}".strip()[:60]
        parts.append(f'<text x="0" y="{i * bar + 12}">{_esc(label)}</text>'
                     f'<rect x="400" y="{i * bar + 2}" width="{max(w, 1):.1f}" height="{bar - 4}" '
                     f'fill="#009e73"/><text x="{405 + w:.1f}" y="{i * bar + 12}">'
                     f'{r.ms_per_run:.3f} ms ({100 * r.share:.1f}%)</text>')
    parts.append("</svg>")
    return "".join(parts)


def report_html(report: Any = None, profile: Any = None) -> str:
    """The page for a ValidationReport and/or a Profile (either may be None)."""
    body = ["<h1>Ember devtools report</h1>"]
    if report is not None:
        verdict = ('<span class="ok">within tolerance</span>' if report.ok
                   else '<span class="fail">OUT OF TOLERANCE</span>')
        body.append(f"<h2>Numerical validation ({_esc(', '.join(report.backends) or 'portable')})"
                    f"</h2><p>Outputs: {verdict}. {len(report.nodes)} intermediates compared.</p>")
        d = report.first_divergence
        if d is not None:
            body.append(f"<p><b>First divergence:</b> {_esc(d.node)} ({_esc(d.op)}) at "
                        f"<code>{_esc(d.source)}</code> <code>{_esc(d.source_text)}</code><br>"
                        f"{_esc(d.comparison)}<br>eager: {_esc(d.comparison.expected)}<br>"
                        f"ember: {_esc(d.comparison.actual)}</p>")
        body.append(_error_chart(report))
        if report.layers:
            body.append("<h2>Quantized layers: SQNR against float</h2>" + _sqnr_chart(report.layers))
        rows = "".join(
            f'<tr class="{"" if n.comparison.within_tolerance else "bad"}"><td>{_esc(n.node)}</td>'
            f"<td>{_esc(n.op)}</td><td>{_esc(n.source)}</td>"
            f'<td class="num">{n.comparison.max_abs_error:.3g}</td>'
            f'<td class="num">{n.comparison.sqnr_db:.1f}</td></tr>' for n in report.nodes)
        body.append("<table><tr><th>node</th><th>op</th><th>source</th><th>max |diff|</th>"
                    f"<th>SQNR dB</th></tr>{rows}</table>")
    if profile is not None:
        body.append(f"<h2>Profile: {profile.total_ms:.3f} ms per run</h2>" + _profile_chart(profile))
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Ember devtools report"
            f"</title><style>{_STYLE}</style></head><body>{''.join(body)}</body></html>\n")
