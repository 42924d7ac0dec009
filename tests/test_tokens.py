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
