"""REST calls per event of the whole action, on the dev split's issues delivered as issue events.

Each SWE-bench Lite dev instance's problem statement becomes an ``issues`` ``opened`` event
(title line, body), then an ``edited`` event after a comment was added; ``ctxaction action`` runs
as a subprocess under a simulated runner (tests/github/runner.py) against the loopback fake REST
API (tests/ghserver.py), packaging a clone of this repository. The requests the fake received
are counted per run. Counts do not depend on the repository packaged, only on the event.

    python bench/action_rest_calls.py [--instances FILE] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
NUMBER = re.compile(r"/\d+")

from tests.ghserver import FakeGitHub, webhook_fixture  # noqa: E402
from tests.github.runner import ActionRunner  # noqa: E402
from tests.gitrepo import GitRepo  # noqa: E402


def _event(action: str, number: int, statement: str) -> dict[str, object]:
    payload = webhook_fixture("issues.opened.json")
    title, _, body = statement.strip().partition("\n")
    payload["action"] = action
    payload["issue"].update(number=number, title=title.strip()[:250], body=body.strip())
    return payload


def main(argv: list[str] | None = None) -> int:
    """Run every instance twice and print the call counts; 0 when every run succeeded."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--instances", default=str(ROOT.parent / "shared/eval/data/swe-bench-lite-dev.json"))
    ap.add_argument("--limit", type=int, default=0, help="only the first N instances")
    ap.add_argument("--code", help="run ctxaction from this folder (PYTHONPATH) instead of the install")
    a = ap.parse_args(argv)
    instances = json.loads(Path(a.instances).read_text(encoding="utf-8"))
    if a.limit:
        instances = instances[: a.limit]

    tmp = Path(tempfile.mkdtemp(prefix="ctx-rest-"))
    subprocess.run(["git", "clone", "-q", f"file://{ROOT}", str(tmp / "ws")], check=True)
    workspace = GitRepo(tmp / "ws")
    fake = FakeGitHub()
    fake.start()
    counts: dict[str, list[int]] = {"opened (comment created)": [], "edited (comment updated)": []}
    routes: Counter[str] = Counter()
    failures = 0
    try:
        runner = ActionRunner(tmp, fake, workspace.root, {"PYTHONPATH": a.code} if a.code else None)
        for number, inst in enumerate(instances, start=1):
            opened = _event("opened", number, inst["problem_statement"])
            fake.add_issue(opened["issue"])  # type: ignore[arg-type]
            for label, payload in (
                ("opened (comment created)", opened),
                ("edited (comment updated)", _event("edited", number, inst["problem_statement"])),
            ):
                result = runner.run("issues", payload)
                if result.code != 0:
                    failures += 1
                    tail = (result.stdout + result.stderr)[-600:]
                    print(f"{inst['instance_id']} {label}: exit {result.code}: {tail}", file=sys.stderr)
                counts[label].append(len(result.requests))
                routes.update(f"{label}: {r.method} {NUMBER.sub('/N', r.path)}" for r in result.requests)
                if label.startswith("opened"):
                    fake.add_comment(number, "Thanks, I can reproduce this.", login="maintainer")
    finally:
        fake.stop()

    print(f"{len(instances)} dev-split issues as issue events, ctxaction action against the loopback API")
    print(f"{'event':<28} {'runs':>5} {'min':>4} {'median':>6} {'max':>4} {'total':>6}")
    for label, values in counts.items():
        print(
            f"{label:<28} {len(values):>5} {min(values):>4} {statistics.median(values):>6} {max(values):>4} "
            f"{sum(values):>6}"
        )
    for route, n in sorted(routes.items()):
        print(f"  {n:>4} × {route}")
    print(f"failed runs: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
