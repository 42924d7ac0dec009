"""Dropping the weakest files: lowest score first, later first among equals, named as omitted."""

from __future__ import annotations

from ctxaction.model import OmittedFile, Package, PackedFile, Task
from ctxaction.pack.weakest import drop_weakest


def _package(scores: list[float]) -> Package:
    files = [PackedFile(f"f{i}.py", "full", [(1, 1)], "x\n", 10 + i, s, []) for i, s in enumerate(scores)]
    old = [OmittedFile("old.py", 0.1, 5, "r")]
    return Package(task=Task("t"), profile="bugfix", files=files, omitted=old)


def test_the_lowest_scores_go_first_and_lead_the_omitted_list() -> None:
    package = _package([0.9, 0.2, 0.7, 0.2])
    files = package.files
    drop_weakest(package, 2, "too big")
    assert package.files is files and [f.path for f in files] == ["f0.py", "f2.py"]
    assert [(o.path, o.tokens, o.reason) for o in package.omitted] == [
        ("f1.py", 11, "too big"), ("f3.py", 13, "too big"), ("old.py", 5, "r"),
    ]


def test_rank_order_means_the_last_file_goes_first() -> None:
    package = _package([0.9, 0.5, 0.5])
    drop_weakest(package, 1, "over", size=lambda path: 100)
    assert [f.path for f in package.files] == ["f0.py", "f1.py"]
    assert package.omitted[0] == OmittedFile("f2.py", 0.5, 100, "over")
    drop_weakest(package, 0, "over")
    drop_weakest(package, 5, "over")
    assert package.files == [] and [o.path for o in package.omitted][:2] == ["f0.py", "f1.py"]
