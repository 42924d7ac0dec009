import hashlib
import os

import pytest

from ctxaction import tokens


def test_offline_seed_gives_exact_o200k_counts() -> None:
    counter = tokens.get_counter("o200k_base")
    assert counter.exact is True
    assert counter.encoding == "o200k_base"
    assert counter.count("hello world") == 2
    assert counter.count("") == 0
    cached = tokens._cache_path("o200k_base")
    with open(cached, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == tokens._KNOWN_RANKS["o200k_base"]


def test_model_names_map_to_encodings() -> None:
    assert tokens.encoding_for("gpt-4o") == "o200k_base"
    assert tokens.encoding_for("gpt-4") == "cl100k_base"
    with pytest.raises(tokens.TokenizerError, match="unknown model"):
        tokens.encoding_for("no-such-model")


def test_corrupt_cache_is_replaced_by_checked_copy() -> None:
    path = tokens._cache_path("cl100k_base")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"not ranks")
    assert tokens.seed_cache("cl100k_base") is True
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == tokens._KNOWN_RANKS["cl100k_base"]


def test_estimate_is_labelled_and_over_counts() -> None:
    est = tokens.EstimateCounter("o200k_base")
    exact = tokens.get_counter("o200k_base")
    text = "def load_config(path: str) -> dict:\n    return yaml.safe_load(open(path))\n" * 20
    assert est.exact is False
    assert est.count(text) >= exact.count(text)


SAMPLES = [
    "hello world",
    "def load_config(path: str) -> dict:\n    return yaml.safe_load(open(path))\n",
    "  indented\r\n\ttabs and CRLF\r\n\n\n",
    "naïve café — 東京 🚀 l'été it's 12345678 <|endoftext|>",
    "x" * 5000,
]


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_table_encoding_matches_tiktokens_own(encoding: str) -> None:
    import tiktoken
    from tiktoken_ext import openai_public  # type: ignore[import-untyped]

    own = getattr(openai_public, encoding)()
    spec = tokens._SPECS[encoding]
    assert (spec.pat_str, spec.special_tokens) == (own["pat_str"], own["special_tokens"])
    assert tokens.load_ranks(encoding) == own["mergeable_ranks"]
    counter = tokens.get_counter(encoding)
    reference = tiktoken.get_encoding(encoding)
    for text in SAMPLES:
        assert counter.count(text) == len(reference.encode_ordinary(text))


def test_rank_table_is_cached_checked_and_replaced_when_corrupt() -> None:
    path = tokens._table_path("cl100k_base")
    expected = tokens.load_ranks("cl100k_base")
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == tokens._SPECS["cl100k_base"].table_sha
    with open(path, "r+b") as f:
        f.seek(5000)
        f.write(b"\x00\x01")
    assert tokens.load_ranks("cl100k_base") == expected
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == tokens._SPECS["cl100k_base"].table_sha


def test_unknown_encoding_falls_back_to_tiktoken_then_estimate() -> None:
    assert tokens.load_ranks("nope_base") is None
    with pytest.raises(tokens.TokenizerError, match="cannot load the nope_base ranks"):
        tokens.get_counter("nope_base")
    est = tokens.get_counter("nope_base", allow_estimate=True)
    assert (est.exact, est.encoding) == (False, "nope_base")


def test_repeated_counts_are_remembered_and_stay_exact() -> None:
    import tiktoken

    counter = tokens.get_counter("o200k_base")
    reference = tiktoken.get_encoding("o200k_base")
    text = "def f(x):\n    return x + 1\n" * 50
    first = counter.count(text)
    assert counter.count(text) == first == len(reference.encode_ordinary(text))
    assert isinstance(counter, tokens.TiktokenCounter) and counter._memo[text] == first


def _tricky_texts() -> list[str]:
    """This repository's own sources (real code and prose), raw and as JSON strings, plus the line
    starts the split must refuse (``/`` after a punctuation run, spaces, CRLF, an escaped ``\\n``
    followed by a letter or a slash)."""
    import json
    from pathlib import Path

    root = Path(tokens.__file__).resolve().parent
    sources = [p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.py"))[:40]]
    edge = "x = (a)\n/ b\n  \n\n\tz\r\n)\n/* c */\n\\n  d\\nfoo\\n/bar '\nll'\n's\nDon't\n"
    texts = [*sources, edge, edge * 3]
    texts += [json.dumps(t, ensure_ascii=False) for t in texts] + [json.dumps(t) for t in sources[:5]]
    return texts


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_count_by_parts_equals_a_whole_count(encoding: str) -> None:
    counter = tokens.get_counter(encoding)
    assert isinstance(counter, tokens.TiktokenCounter)
    for text in _tricky_texts():
        assert tokens.count_by_parts(counter, text) == len(counter._enc.encode_ordinary(text))


def test_count_by_parts_reuses_unchanged_lines_and_leaves_estimates_whole() -> None:
    counter = tokens.get_counter("o200k_base")
    assert isinstance(counter, tokens.TiktokenCounter)
    body = "".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(200))
    tokens.count_by_parts(counter, "header 1\n" + body)
    remembered = len(counter._memo)
    changed = "header 22\n" + body
    assert tokens.count_by_parts(counter, changed) == len(counter._enc.encode_ordinary(changed))
    assert len(counter._memo) == remembered + 1  # only the changed first line was counted anew
    estimate = tokens.EstimateCounter("o200k_base")
    assert tokens.count_by_parts(estimate, "a\nb\nc") == estimate.count("a\nb\nc") == 2
