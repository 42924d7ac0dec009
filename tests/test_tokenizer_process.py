"""The tokenizer's child process: the same counts as in-process, and a clean fall-back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ctxaction import tokenizer_process, tokens
from ctxaction.repo.process import Process

TEXTS = [
    "hello world",
    "def load_config(path: str) -> dict:\n    return yaml.safe_load(open(path))\n",
    "naïve café — 東京 🚀 l'été 12345678 <|endoftext|> <|endofprompt|>",
    "lone surrogate \ud800 in the middle",
    "  indented\r\n\ttabs\r\n\n",
    "",
    "x" * 200_000,
]


def _child(encoding: str) -> tokenizer_process.ProcessCounter:
    proc = tokenizer_process.spawn(encoding)
    assert proc is not None
    counter = tokenizer_process.connect(proc, encoding)
    assert isinstance(counter, tokenizer_process.ProcessCounter)
    return counter


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_child_counts_equal_in_process_counts(encoding: str) -> None:
    local = tokens.get_counter(encoding)
    child = _child(encoding)
    try:
        assert child.count_many(TEXTS) == [local.count(t) for t in TEXTS]
        assert [child.count(t) for t in TEXTS] == [local.count(t) for t in TEXTS]
        source = Path(tokens.__file__).read_text(encoding="utf-8")
        assert tokens.count_by_parts(child, source) == local.count(source)
        assert tokens.count_by_parts(child, json.dumps(source)) == local.count(json.dumps(source))
    finally:
        child.close()


def test_count_many_asks_once_for_repeated_texts() -> None:
    child = _child("o200k_base")
    try:
        assert child.count_many(["a b", "a b", "", "c"]) == [2, 2, 0, 1]
        assert set(child._memo) == {"a b", "c"}
    finally:
        child.close()


def test_a_child_that_dies_is_replaced_by_an_in_process_encoding() -> None:
    child = _child("o200k_base")
    proc = child._proc
    assert proc is not None
    proc.kill()
    proc.wait()
    text = "def f(x):\n    return x + 1\n"
    assert child.count(text) == tokens.get_counter("o200k_base").count(text)
    assert child._proc is None and child._enc is not None


def test_a_child_that_cannot_load_says_so_and_exits() -> None:
    argv = [sys.executable, "-I", "-c", tokenizer_process._BOOT,
            str(Path(tokens.__file__).resolve().parent.parent), "nope_base"]  # fmt: skip
    proc = Process(argv, {}, stdin=True, stderr=False)
    assert tokenizer_process.connect(proc, "nope_base") == "ValueError"  # tiktoken: unknown encoding
    assert proc.poll() is not None
    # What the parent then does, without loading again: the estimate if allowed, else the error.
    assert tokens.unavailable("nope_base", True, "ValueError").exact is False
    with pytest.raises(tokens.TokenizerError, match=r"cannot load the nope_base ranks .*\(ValueError\)"):
        tokens.unavailable("nope_base", False, "ValueError")


def test_a_child_that_ends_without_a_word_leaves_the_loading_to_the_parent() -> None:
    proc = Process([sys.executable, "-I", "-c", "pass"], {}, stdin=True, stderr=False)
    assert tokenizer_process.connect(proc, "o200k_base") == ""
    # Without site-packages (-S) the child has our code but not tiktoken: that says nothing of the
    # ranks, so it ends without a word too, and the parent loads them itself.
    root = str(Path(tokens.__file__).resolve().parent.parent)
    argv = [sys.executable, "-I", "-S", "-c", tokenizer_process._BOOT, root, "o200k_base"]
    proc = Process(argv, {}, stdin=True, stderr=False)
    assert proc.wait(timeout=60) == 0  # serve() ran and chose to say nothing (a failed start exits 1)
    assert tokenizer_process.connect(proc, "o200k_base") == ""


def test_no_child_for_encodings_without_a_pinned_table() -> None:
    assert tokenizer_process.spawn("r50k_base") is None
    with tokenizer_process.Counting("nope_base", True, separate=True) as counting:
        counting.start()
        counter = counting.result()
    assert (counter.exact, counter.encoding) == (False, "nope_base")


SCRIPT = """
import os
from ctxaction import tokenizer_process, tokens
pids, got = set(), []
for _ in range(2):
    with tokenizer_process.Counting("gpt-4o", False, separate=True) as counting:
        counting.start()
        counter = counting.result()
        assert isinstance(counter, tokenizer_process.ProcessCounter), counter
        assert counter._proc is not None
        pids.add(counter._proc.pid)
        got.append(counter.count_many(["hello world", "naïve café"]))
assert len(pids) == 1, "each build started its own child"
assert not tokens.is_loaded("o200k_base")
print(pids.pop(), got[0] == got[1] and got[0])
"""


def test_a_fresh_process_counts_in_one_child_and_stops_it_at_exit(tmp_path: Path) -> None:
    root = str(Path(tokens.__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {root!r})\n{SCRIPT}"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    pid, counts = done.stdout.strip().split(" ", 1)
    local = tokens.get_counter("o200k_base")
    assert counts == str([local.count("hello world"), local.count("naïve café")])
    assert not Path(f"/proc/{pid}").exists(), "the child outlived its parent"
