"""Token counts from a second process: the tokenizer loads on another core while the build ranks.

Building tiktoken's encoding is about a quarter of a one-shot build's time, and all of it holds
the GIL (200k ranks become a dict, then tiktoken's own tables), so a thread cannot hide it. A
child process can: ``python -I`` running :func:`serve` loads the encoding exactly as
:func:`ctxaction.tokens.get_counter` does, says whether it could, then answers batches of texts
with their token counts over its pipes. The parent keeps the memo, so it only sends texts it has
not counted yet, and whole renderings go as one batch of their unseen parts. Like
:func:`ctxaction.tokens.get_counter`'s encodings, one child per encoding serves the whole
process; it ends with it (at exit, or when its stdin closes).

Whatever goes wrong with the child (no interpreter path, no ``posix_spawn``, ranks it cannot load,
a crash midway) the parent loads the encoding itself: the same counts, only later. Long-lived
callers (the MCP server, tests, ``bench/``) and the action (it renders the package again in other
formats, counting in-process) load in-process once and never start a child.

Protocol (big-endian): the child first writes one byte, ``1`` when the encoding is loaded, or
``0`` and the failure's type name on a line when it is not (it then exits: loading in the parent
would fail the same way, after as long a wait, so the parent reports it at once). A child that
cannot import what the parent can (isolated mode ignores PYTHONPATH) ends without a word, and the
parent loads the ranks itself. Then each request
is ``n`` and ``n`` texts (length and UTF-8 bytes, lone surrogates passed through), and each answer
``n`` counts.
"""

from __future__ import annotations

import atexit
import os
import struct
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ctxaction import tokens
from ctxaction.repo.process import Process

# The child imports this module and never starts a pool: concurrent.futures (and the logging it
# loads) would be a fifth of its imports.
if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

_READY = b"1"
_UNAVAILABLE = b"0"
_U32 = struct.Struct(">I")
# The child runs our own entry point in isolated mode: no PYTHON* variables, no user site, no
# current directory on sys.path (it may be the repository being packed); our package's folder is
# put first so the child runs this very copy of ctxaction.
_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from ctxaction.tokenizer_process import serve; raise SystemExit(serve(sys.argv[2]))"
)


def serve(encoding: str) -> int:
    """The child's loop: load ``encoding``, report, then count batches until stdin closes."""
    out, inp = sys.stdout.buffer, sys.stdin.buffer
    try:
        enc = tokens.load_encoding(encoding)
    except ImportError:
        # Isolated mode left out something the parent imports (a PYTHONPATH entry): not a fact
        # about the ranks, so the parent loads them itself.
        return 0
    except Exception as exc:  # the parent reports it, or falls back to the estimate
        out.write(_UNAVAILABLE + type(exc).__name__.encode("ascii", "replace")[:80] + b"\n")
        out.flush()
        return 0
    out.write(_READY)
    out.flush()
    while True:
        head = inp.read(4)
        if len(head) < 4:
            return 0
        counts = []
        for _ in range(_U32.unpack(head)[0]):
            size = _U32.unpack(_read_exactly(inp, 4))[0]
            text = _read_exactly(inp, size).decode("utf-8", "surrogatepass")
            counts.append(len(enc.encode_ordinary(text)))
        out.write(struct.pack(f">{len(counts)}I", *counts))
        out.flush()


def _read_exactly(stream: Any, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError("the other end closed the pipe")
    return bytes(data)


@dataclass
class ProcessCounter(tokens.TiktokenCounter):
    """Exact counts from the child (:func:`serve`); loads in-process if the child fails."""

    _proc: Process | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _lengths(self, texts: Sequence[str]) -> list[int]:
        with self._lock:
            if self._proc is not None:
                try:
                    return self._ask(self._proc, texts)
                except (OSError, EOFError, ValueError, struct.error):
                    self.close()
            if self._enc is None:
                self._enc = tokens.load_encoding(self.encoding)
        return super()._lengths(texts)

    @staticmethod
    def _ask(proc: Process, texts: Sequence[str]) -> list[int]:
        assert proc.stdin is not None
        parts = [_U32.pack(len(texts))]
        for text in texts:
            data = text.encode("utf-8", "surrogatepass")
            parts += (_U32.pack(len(data)), data)
        # Unbuffered, like Process.communicate: a child gone midway leaves nothing to flush later.
        view = memoryview(b"".join(parts))
        while view:
            view = view[os.write(proc.stdin.fileno(), view) :]
        answer = _read_exactly(proc.stdout, 4 * len(texts))
        return list(struct.unpack(f">{len(texts)}I", answer))

    def close(self) -> None:
        """Stop the child (it also stops by itself when our end of its stdin closes)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.close()


class _Child:
    """The process's one child for an encoding: started once, connected by the first build that
    needs it, shared by every later one (its memo too), stopped when the process exits."""

    def __init__(self, proc: Process, encoding: str) -> None:
        self.proc, self.encoding = proc, encoding
        self._lock = threading.Lock()
        self._answer: ProcessCounter | str | None = None

    def answer(self) -> ProcessCounter | str:
        """See :func:`connect` (asked once, remembered)."""
        with self._lock:
            if self._answer is None:
                self._answer = connect(self.proc, self.encoding)
            return self._answer

    def close(self) -> None:
        if isinstance(self._answer, ProcessCounter):
            self._answer.close()
        else:
            self.proc.close()


_CHILDREN: dict[str, _Child] = {}
_CHILDREN_LOCK = threading.Lock()


def _child(encoding: str) -> _Child | None:
    with _CHILDREN_LOCK:
        if encoding not in _CHILDREN:
            proc = spawn(encoding)
            if proc is None:
                return None
            if not _CHILDREN:
                atexit.register(_stop_children)
            _CHILDREN[encoding] = _Child(proc, encoding)
        return _CHILDREN[encoding]


def _stop_children() -> None:
    with _CHILDREN_LOCK:
        children = list(_CHILDREN.values())
        _CHILDREN.clear()
    for child in children:
        child.close()


class Counting:
    """Where a build's counter comes from. Entering the block starts the process's tokenizer
    child when ``separate`` and nothing is loaded here yet (as early as possible: it works on
    another core); otherwise :meth:`start` begins loading on a thread. :meth:`result` waits for
    the counter; leaving the block stops the thread."""

    def __init__(self, model_or_encoding: str, allow_estimate: bool, *, separate: bool) -> None:
        self.model, self.allow_estimate, self.separate = model_or_encoding, allow_estimate, separate
        self._child: _Child | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._loading: Future[tokens.Counter] | None = None

    def start(self) -> None:
        """Begin loading on a thread unless a child does it."""
        if self._child is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=1)
            self._loading = self._pool.submit(tokens.get_counter, self.model, self.allow_estimate)

    def result(self) -> tokens.Counter:
        """The counter: the child's when it loaded the encoding, else one loaded here (which
        raises TokenizerError, or falls back to the estimate, exactly as get_counter does)."""
        if self._loading is not None:
            return self._loading.result()
        if self._child is not None:
            answer = self._child.answer()
            if isinstance(answer, ProcessCounter):
                return answer
            if answer:  # the child could not load the ranks: say why now, without loading again
                return tokens.unavailable(self._child.encoding, self.allow_estimate, answer)
        return tokens.get_counter(self.model, self.allow_estimate)

    def __enter__(self) -> Counting:
        """Start the child (raises TokenizerError for a model tiktoken does not know)."""
        if self.separate:
            encoding = tokens.encoding_for(self.model)
            if not tokens.is_loaded(encoding):
                self._child = _child(encoding)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)


def spawn(encoding: str) -> Process | None:
    """A child loading ``encoding`` (see :func:`serve`), or None where one cannot be started."""
    if os.name != "posix" or not sys.executable or encoding not in tokens.KNOWN_ENCODINGS:
        return None
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(tokens.__file__)))
    argv = [sys.executable, "-I", "-c", _BOOT, package_parent, encoding]
    try:
        return Process(argv, dict(os.environ), stdin=True, stderr=False)
    except OSError:
        return None


def connect(proc: Process, encoding: str) -> ProcessCounter | str:
    """The counter served by ``proc`` once it has loaded ``encoding`` (waits for it). When it could
    not, the child is stopped and the answer is the type name of its failure, or "" when it
    ended without saying (then loading in-process is worth a try)."""
    try:
        status = proc.stdout.read(1)
        failure = proc.stdout.readline(100) if status == _UNAVAILABLE else b""
    except OSError:
        status, failure = b"", b""
    if status == _READY:
        return ProcessCounter(encoding, None, _proc=proc)
    proc.close()
    return failure.decode("ascii", "replace").strip()
