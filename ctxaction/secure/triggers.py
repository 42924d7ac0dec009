"""Where rules must run: one Aho-Corasick pass finds every rule's keywords at once.

``ahocorasick_rs`` is a binding of the Rust ``aho-corasick`` crate; see detect.py for why an
automaton and not one substring test or one regex alternation per keyword.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ctxaction.secure.rule import Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ahocorasick_rs import AhoCorasick, Implementation

# Characters searched with the quick-to-build automaton before the faster-searching one is built.
DFA_AFTER = 512_000
# The rule index of a marker: a string looked for in the same pass as the keywords that wakes no
# rule (where string pieces meet, see continued.py; an escaped character, see escapes.py).
MARKER = -1
_MARKER_WAKE = (("", (MARKER,)),)


class Triggers:
    """Every rule keyword in one automaton over the lowercased text. A keyword with capitals
    (``AKIA``, ``SK``) only counts where the text has it as written, so short vendor prefixes do
    not wake their rules on every ``task`` or ``each``. ``markers`` are looked for in the same
    pass and reported with the rule index :data:`MARKER` (lowercase, found in any case)."""

    def __init__(self, rules: Sequence[Rule], markers: Sequence[str] = ()) -> None:
        from ahocorasick_rs import Implementation

        self.rules = rules
        # lowercased keyword -> [(keyword as written when case matters, else "", rule indexes)]
        table: dict[str, dict[str, list[int]]] = {}
        self.always: list[int] = []
        for index, rule in enumerate(rules):
            if not rule.keywords:
                self.always.append(index)
            for keyword in rule.keywords:
                exact = "" if keyword == keyword.lower() else keyword
                table.setdefault(keyword.lower(), {}).setdefault(exact, []).append(index)
        # The markers come first and share one entry: they wake no rule (a hook run builds this
        # table every time, so nothing is done per marker but handing it to the automaton).
        self.wakes = [_MARKER_WAKE] * len(markers) + [
            tuple((exact, tuple(indexes)) for exact, indexes in forms.items()) for forms in table.values()
        ]
        self.keywords = [*markers, *table]
        self.longest = max(map(len, table), default=0)  # of the keywords
        self.searched = 0  # characters searched so far
        self.automaton = self._build(Implementation.ContiguousNFA) if self.keywords else None
        self.dfa = False

    def _build(self, implementation: Implementation) -> AhoCorasick:
        from ahocorasick_rs import AhoCorasick

        return AhoCorasick(self.keywords, implementation=implementation)

    def _search(self, lower: str) -> list[tuple[int, int, int]]:
        """Every keyword match in ``lower``. A DFA searches ~2x faster than the contiguous NFA but
        costs ~2 ms more to build (several times that on a loaded machine): a commit's few files
        are searched with the NFA, and a scan switches to the DFA once it has read enough text
        for the faster search to pay for the build. Both report the same matches."""
        if not self.dfa and self.searched > DFA_AFTER:
            from ahocorasick_rs import Implementation

            self.automaton, self.dfa = self._build(Implementation.DFA), True
        self.searched += len(lower)
        assert self.automaton is not None
        return self.automaton.find_matches_as_indexes(lower, overlapping=True)

    def hits(self, text: str) -> Iterator[tuple[tuple[int, ...], int, int]]:
        """``(rule indexes, start, end)`` for every keyword occurrence in ``text``."""
        if self.automaton is None:
            return
        lower = text.lower()
        if len(lower) != len(text):  # a few characters lowercase to two: keep offsets aligned
            lower = "".join(ch if len(ch.lower()) != 1 else ch.lower() for ch in text)
        try:
            found = self._search(lower)
        except UnicodeEncodeError:  # lone surrogates (from JSON "\\ud800" and the like): one "?" each
            lower = lower.encode("utf-8", "replace").decode("utf-8")
            found = self._search(lower)
        for index, start, end in found:
            for exact, indexes in self.wakes[index]:
                if not exact or text.startswith(exact, start):
                    yield indexes, start, end

    def cut(self, left: str, right: str) -> bool:
        """Whether a keyword runs from the end of ``left`` into the start of ``right`` (a value
        cut in two inside its keyword: ``"gh" "p_…"``)."""
        at = len(left)
        hits = self.hits(left + right)
        return any(start < at < end for indexes, start, end in hits if indexes[0] != MARKER)


def segments(
    triggers: Triggers,
    text: str,
    long_line: int,
    spots: list[int] | None,
    marks: list[tuple[int, int]] | None = None,
) -> Iterator[tuple[int, int, int, bool]]:
    """``(rule index, start, end, clipped)``: where each woken rule's regex must run; every
    keyword hit's offset is added to ``spots`` and every marker's span to ``marks`` (when given).

    An anchored rule is tried once, right at the keyword (``end`` is -1). Otherwise a segment is
    the hit's line with the newline on either side (patterns may begin or end on a ``\\s``), the
    whole text for multi-line rules, or a window of ``rule.reach`` around the hit on a very long
    line (``clipped``: a match touching the window's end may be cut short).
    """
    rules = triggers.rules
    size = len(text)
    done: set[tuple[int, int]] = set()
    whole = set(triggers.always)
    for indexes, start, end in triggers.hits(text):
        if indexes[0] == MARKER:
            if marks is not None:
                marks.append((start, end))
            continue
        if spots is not None:
            spots.append(start)
        line_start = -1
        for index in indexes:
            rule = rules[index]
            if rule.anchored:
                yield index, start, -1, False
                continue
            if rule.multiline:
                whole.add(index)
                continue
            if line_start < 0:
                line_start = text.rfind("\n", 0, start) + 1
                line_end = text.find("\n", end)
                if line_end < 0:
                    line_end = size
                seg_start, seg_end = max(0, line_start - 1), min(size, line_end + 1)
                is_long = line_end - line_start > long_line
            if is_long:
                lo, hi = max(seg_start, start - rule.reach), min(seg_end, end + rule.reach)
                if (index, lo) not in done:
                    done.add((index, lo))
                    yield index, lo, hi, hi < seg_end
            elif (index, seg_start) not in done:
                done.add((index, seg_start))
                yield index, seg_start, seg_end, False
    for index in sorted(whole):
        yield index, 0, size, False
