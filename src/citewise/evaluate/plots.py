"""The report's figures, drawn with matplotlib (Agg, no display) and returned as PNG data URIs so
the HTML report is one self-contained file. matplotlib is imported when a figure is drawn."""

from __future__ import annotations

import base64
import io
from typing import Any

from citewise.errors import MissingDependency


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as e:
        raise MissingDependency("matplotlib", purpose="the evaluation report's plots") from e
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _uri(fig: Any) -> str:
    plt = _pyplot()
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def distributions(support: list[float], confidence: list[float], reference_support: list[float]) -> str:
    """Histograms of sentence support (by the cited text and by the references) and of answer
    confidence."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.2))
    bins = [i / 10 for i in range(11)]
    for ax, values, title in (
        (axes[0], support, "sentence support (cited text)"),
        (axes[1], reference_support, "sentence support (reference text)"),
        (axes[2], confidence, "answer confidence"),
    ):
        ax.hist(values, bins=bins, color="#4c72b0", edgecolor="white")
        ax.set_title(f"{title} (n={len(values)})", fontsize=10)
        ax.set_xlim(0, 1)
    axes[0].set_ylabel("count")
    return _uri(fig)


def reliability_curve(rows: list[dict[str, Any]]) -> str:
    """Share of answers that are right per confidence bin, against the diagonal."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.5, 4))
    ax.plot([0, 1], [0, 1], linestyle="--", color="#999999", label="perfectly calibrated")
    if rows:
        xs = [r["confidence"] for r in rows]
        ys = [r["correct"] for r in rows]
        ax.plot(xs, ys, marker="o", color="#c44e52", label="citewise")
        for x, y, r in zip(xs, ys, rows, strict=True):
            ax.annotate(f"n={r['n']}", (x, y), textcoords="offset points", xytext=(4, -12), fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("confidence")
    ax.set_ylabel("share correct")
    ax.set_title("reliability", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    return _uri(fig)


BAR_METRICS = (
    ("answer_rate", "answer rate"),
    ("refusal_correctness", "refusal correctness"),
    ("hit5", "Hit@5"),
    ("citation_precision", "citation precision"),
)


def group_bars(groups: dict[str, dict[str, Any]], title: str) -> str:
    """Headline figures per group (question type or language) as grouped bars."""
    plt = _pyplot()
    names = list(groups)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(names) + 2), 3.4))
    width = 0.8 / len(BAR_METRICS)
    for i, (key, label) in enumerate(BAR_METRICS):
        values = []
        for g in names:
            v = groups[g]["retrieval"].get(key) if key == "hit5" else groups[g].get(key)
            values.append(v if isinstance(v, float | int) else 0.0)
        xs = [j + (i - (len(BAR_METRICS) - 1) / 2) * width for j in range(len(names))]
        ax.bar(xs, values, width=width, label=label)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels([f"{g}\n(n={groups[g]['questions']})" for g in names], fontsize=9)
    ax.set_ylim(0, 1.05)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, ncol=len(BAR_METRICS), loc="lower center", bbox_to_anchor=(0.5, -0.45))
    return _uri(fig)
