"""The candidate table of ``ctxaction explain``: file, score, each signal's part, reasons, decision."""

from __future__ import annotations

from ctxaction.pipeline import BuildResult
from ctxaction.printable import printable
from ctxaction.rank.scoring import parts
from ctxaction.secure import redact_text

_WIDTH = 100


def table(result: BuildResult, limit: int = 40) -> str:
    """Plain-text table of the first ``limit`` candidates, then the package's totals."""
    package = result.package
    lines = [
        f"task: {package.task.title}",
        f"profile {result.profile.name} · budget {package.budget_total} · "
        f"packed {package.total_tokens} tokens "
        f"({package.encoding}{'' if package.tokenizer_exact else ', estimated'}) · "
        f"{len(package.files)} files · {len(result.candidates)} candidates",
        "",
        f"{'#':>3}  {'score':>6}  {'decision':<30}  file",
    ]
    for rank, candidate in enumerate(result.candidates[:limit], start=1):
        decision = result.decisions.get(candidate.path, "")
        lines.append(f"{rank:>3}  {candidate.score:>6.3f}  {decision:<30}  {redact_text(candidate.path)}")
        signal_parts = ", ".join(
            f"{name} {value:.2f}" for name, value in parts(candidate, result.profile.scoring).items() if value
        )
        if signal_parts:
            lines.append(f"{'':>13}signals: {signal_parts}")
        if candidate.reasons:
            lines.append(f"{'':>13}why: {_clip(redact_text('; '.join(candidate.reasons)))}")
    hidden = len(result.candidates) - limit
    if hidden > 0:
        lines.append(f"… {hidden} more candidates (raise --limit to see them)")
    for warning in package.warnings:
        lines.append(f"warning: {warning}")
    # Names and reasons were redacted before clipping; the whole table once more for the rest.
    # Titles, paths and reasons come from the task and the repository: one printed line each.
    return redact_text("\n".join(printable(line) for line in lines)) + "\n"


def _clip(text: str) -> str:
    return text if len(text) <= _WIDTH else text[: _WIDTH - 1] + "…"
