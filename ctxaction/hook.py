"""The pre-commit secret check (``ctxaction-secrets``) and the plain git hook installer.

``ctxaction-secrets [FILE…]`` scans the staged blobs (the index, not the work tree), added lines
only; given file names (as pre-commit passes them) it limits itself to those, and scans any that
are not staged (pre-push or manual runs) whole from disk. Exit 1 blocks the commit.

In a push (``--pre-push`` with git's ref lines on stdin, or pre-commit's pre-push stage, which
sets ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF``) it scans the added lines of exactly the
pushed commits instead, so a key committed and removed again before the push is still caught.

``ctxaction hook install [--pre-push]`` writes :func:`shim` into the folder
``git rev-parse --git-path hooks`` names (so ``core.hooksPath`` and worktrees are honoured); an
existing hook is moved aside to ``<hook>.ctxaction-legacy`` and run first.

Git runs hooks at the top of the work tree, so the repository being committed to must never be
on ``sys.path``: the shim starts Python isolated (``-I``: no current folder, no ``PYTHON*``
variables, no user site), or the ``ctxaction-secrets`` console script, whose ``sys.path`` starts
at its own folder. A ``ctxaction/hook.py`` committed to the repository is never imported.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ctxaction.errors import HookError as HookError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

    from ctxaction.secure.history import HistoryRange

MARKER = "# ctxaction-secrets hook (managed by `ctxaction hook install`)"
LEGACY_SUFFIX = ".ctxaction-legacy"
HOOK_NAME = "pre-commit"
PUSH_HOOK_NAME = "pre-push"


def shim(hook: str) -> str:
    """The shell script installed as ``hook`` (``pre-commit`` or ``pre-push``). The pre-push one
    hands git's ref lines on stdin to the kept hook and to ours alike."""
    legacy = f"{hook}{LEGACY_SUFFIX}"
    push = hook == PUSH_HOOK_NAME
    what = "a push whose commits add a secret" if push else "a commit that adds a secret"
    skip = "git push --no-verify" if push else "git commit --no-verify"
    feed = """printf '%s\\n' "$input" | """ if push else ""
    run_ours = (
        f'    {feed}"$PYTHON" -I -m ctxaction.hook --pre-push; exit $?\n'
        if push
        else '    exec "$PYTHON" -I -m ctxaction.hook\n'
    )
    run_script = (
        f"    {feed}ctxaction-secrets --pre-push; exit $?\n" if push else "    exec ctxaction-secrets\n"
    )
    return (
        "#!/bin/sh\n"
        f"{MARKER}\n"
        f"# Blocks {what}. Remove with `ctxaction hook uninstall`;\n"
        f"# skip once with `{skip}`. A hook that was here before was kept\n"
        f"# as {legacy} and runs first.\n"
        + ('input="$(cat)"\n' if push else "")
        + f'legacy="$(dirname -- "$0")/{legacy}"\n'
        'if [ -x "$legacy" ]; then\n'
        f'    {feed}"$legacy" "$@" || exit $?\n'
        "fi\n"
        'PYTHON="${CTXACTION_PYTHON:-}"\n'
        'if [ -n "$PYTHON" ] && [ -x "$PYTHON" ]; then\n'
        f"{run_ours}"
        "fi\n"
        "if command -v ctxaction-secrets >/dev/null 2>&1; then\n"
        f"{run_script}"
        "fi\n"
        f'echo "ctxaction-secrets not found: pip install ctxaction, or skip once with {skip}" >&2\n'
        "exit 1\n"
    )


SHIM = shim(HOOK_NAME)
PUSH_SHIM = shim(PUSH_HOOK_NAME)


class _Args:
    """The hook's options: what pre-commit passes (file names) and what a config may add."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self.all_lines = False
        self.pre_push = False
        self.baseline: Path | None = None
        self.config: Path | None = None
        self.verbose = False


def _parse(argv: Sequence[str]) -> _Args | None:
    """Parse the common forms without argparse (which, with the ``shutil`` its help formatter
    loads, is a noticeable share of a hook run); None for anything else (``--help``, typos,
    missing values), which :func:`_parse_slow` handles with argparse's messages."""
    args = _Args()
    items = list(argv)
    while items:
        item = items.pop(0)
        if item == "--":
            args.files += items
            break
        if item == "--all-lines":
            args.all_lines = True
        elif item == "--pre-push":
            args.pre_push = True
        elif item in ("-v", "--verbose"):
            args.verbose = True
        elif item in ("--baseline", "--config") or item.startswith(("--baseline=", "--config=")):
            name, eq, value = item.partition("=")
            if not eq:
                if not items or items[0].startswith("-"):
                    return None
                value = items.pop(0)
            setattr(args, name[2:], Path(value))
        elif item.startswith("-") and item != "-":
            return None
        else:
            args.files.append(item)
    return args


SECRETS_HELP = (
    "Block a commit that adds a secret: scan the staged changes (the index, not the work tree), "
    "added lines only. Given file names (as pre-commit passes them), check only those; a file "
    "that is not staged is scanned whole from disk. With --pre-push, scan the added lines of "
    "the pushed commits instead. Exit code 1 when a secret is found, 0 when clean, 2 on a usage "
    "error."
)
SECRETS_EXAMPLES = (
    ("ctxaction-secrets", "check what the next commit adds (what the installed hook runs)"),
    ("ctxaction-secrets --baseline .secrets.baseline app.py", "check app.py, ignoring known findings"),
)


def _parse_slow(argv: Sequence[str]) -> _Args:
    from ctxaction.argparser import Parser, helpful

    parser = Parser(prog="ctxaction-secrets", **helpful(SECRETS_HELP, SECRETS_EXAMPLES))
    parser.add_argument("files", nargs="*", help="files to check (default: every staged change)")
    parser.add_argument(
        "--all-lines", action="store_true", help="scan whole staged files, not only added lines"
    )
    parser.add_argument(
        "--pre-push",
        action="store_true",
        help="scan the commits of a push (git's pre-push ref lines on stdin), not the index",
    )
    parser.add_argument(
        "--baseline", type=Path, metavar="FILE", help="ignore findings listed in this baseline"
    )
    parser.add_argument("--config", type=Path, help="config file (default: context-packages.yaml lookup)")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="list every skipped binary file, not only their count"
    )
    args, extras = parser.parse_known_args(argv, namespace=_Args())
    if extras:
        parser.reject_unknown(extras)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``ctxaction-secrets``; returns 1 when secrets are staged."""
    argv = sys.argv[1:] if argv is None else argv
    args = _parse(argv) or _parse_slow(argv)

    from ctxaction.errors import CtxError
    from ctxaction.secure.sources import PendingDiff, repo_root

    cwd = Path.cwd()
    root = repo_root(cwd)
    pending: PendingDiff | None = None
    try:
        if root is not None:
            span = _pushed(root, args.pre_push)
            if span is not None and not span.revs:
                return 0  # a push that only deletes refs, or whose commits are all on a remote already
            if span is None:
                # git reads the index while the scanner and its rules load.
                pending = PendingDiff(root, ["--cached"], all_lines=args.all_lines)
        elif not args.files:
            print("ctxaction-secrets: not inside a git repository; nothing staged to scan", file=sys.stderr)
            return 0
        from ctxaction.secure.cli import ScanOptions, execute

        if root is None:
            opts = ScanOptions(
                paths=[Path(f) for f in args.files],
                no_ignore=True,
                baseline=args.baseline,
                config=args.config,
                cwd=cwd,
                verbose=args.verbose,
            )
        else:
            only = [_repo_path(root, cwd, f) for f in args.files] if args.files and span is None else None
            opts = ScanOptions(
                staged=span is None,
                history=span,
                all_lines=args.all_lines,
                baseline=args.baseline,
                config=args.config,
                only=only,
                cwd=root,
                root=root,
                verbose=args.verbose,
                pending=pending,
            )
        return execute(opts)
    except CtxError as exc:
        from ctxaction.printable import printable
        from ctxaction.secure import redact_text  # messages name files, which may hold a secret

        print(f"ctxaction-secrets: {printable(redact_text(str(exc)))}", file=sys.stderr)
        return 2
    finally:
        if pending is not None:
            pending.close()


def _pushed(root: Path, from_stdin: bool) -> HistoryRange | None:
    """The commits a push sends, or None outside a push. From git's pre-push stdin
    (``<local ref> <local sha> <remote ref> <remote sha>`` lines) with ``--pre-push``, else from
    pre-commit's ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF`` (or, for a new branch holding the
    root commit, ``PRE_COMMIT_LOCAL_BRANCH``: everything not on a remote yet)."""
    if from_stdin:
        from ctxaction.secure.history import HistoryRange

        revs: list[str] = []
        new_branch = False
        for line in sys.stdin.read().splitlines():
            parts = line.split()
            if len(parts) != 4 or not _is_sha(parts[1]) or not _is_sha(parts[3]):
                continue
            local, remote = parts[1], parts[3]
            if not local.strip("0"):
                continue  # deleting a remote ref pushes no commits
            revs.append(local)
            if remote.strip("0") and _has_commit(root, remote):
                revs.append(f"^{remote}")
            else:
                new_branch = True  # nothing to compare with: whatever no remote has yet
        return HistoryRange(revs, not_remotes="" if new_branch else None)
    env = os.environ
    refs = bool(env.get("PRE_COMMIT_FROM_REF") and env.get("PRE_COMMIT_TO_REF"))
    if not refs and not (env.get("PRE_COMMIT_REMOTE_NAME") and env.get("PRE_COMMIT_LOCAL_BRANCH")):
        return None  # a commit: the history module (and its regexes) stays unloaded
    from ctxaction.secure.history import HistoryRange

    if refs:
        return HistoryRange([f"{env['PRE_COMMIT_FROM_REF']}..{env['PRE_COMMIT_TO_REF']}"])
    return HistoryRange([env["PRE_COMMIT_LOCAL_BRANCH"]], not_remotes="")


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def _has_commit(root: Path, sha: str) -> bool:
    from ctxaction.repo import git

    return git.run_capture(root, ["cat-file", "-e", f"{sha}^{{commit}}"], inherit_repo=True)[0] == 0


def _repo_path(root: Path, cwd: Path, name: str) -> str:
    path = Path(name)
    full = path if path.is_absolute() else cwd / path
    try:
        return full.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def hooks_dir(cwd: Path) -> Path:
    """The hooks folder git uses here (``core.hooksPath``, worktrees and ``$GIT_DIR`` honoured)."""
    from ctxaction.repo import git

    args = ["rev-parse", "--git-path", "hooks"]
    code, out, _ = git.run_capture(cwd, args, inherit_repo=True, keep_hooks=True)
    if code != 0:
        raise HookError(f"{cwd}: not a git repository (run `ctxaction hook install` inside one)")
    path = Path(out.decode("utf-8", "replace").strip())
    return path if path.is_absolute() else cwd / path


def install(cwd: Path, python: str = sys.executable, *, pre_push: bool = False) -> str:
    """Install the shim as the pre-commit hook (the pre-push hook with ``pre_push``); returns a
    one-line description of what happened."""
    name = PUSH_HOOK_NAME if pre_push else HOOK_NAME
    folder = hooks_dir(cwd)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    legacy = folder / (name + LEGACY_SUFFIX)
    # An interpreter that finds ctxaction only through the user site or PYTHONPATH cannot run it
    # isolated: the shim then uses the console script on PATH instead.
    pinned = python if _imports_isolated(python) else ""
    shim_text = shim(name).replace(
        'PYTHON="${CTXACTION_PYTHON:-}"', f'PYTHON="${{CTXACTION_PYTHON:-{pinned}}}"'
    )
    if _ours(target):
        _write_executable(target, shim_text)
        return f"ctxaction hook already installed at {target} (refreshed)"
    moved = ""
    if target.exists() or target.is_symlink():
        if legacy.exists() or legacy.is_symlink():
            raise HookError(f"{legacy} already exists; move it away before installing")
        target.rename(legacy)
        moved = f"; the existing hook now runs first from {legacy.name}"
    _write_executable(target, shim_text)
    return f"ctxaction hook installed at {target}{moved}"


def _imports_isolated(python: str) -> bool:
    """Whether ``python -I`` (the shim's way of starting it) can import the hook."""
    import subprocess

    try:
        proc = subprocess.run(
            [python, "-I", "-c", "import ctxaction.hook"], capture_output=True, check=False, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def uninstall(cwd: Path, *, pre_push: bool = False) -> str:
    """Remove our hook and put back the one it replaced; never touches a hook that is not ours."""
    name = PUSH_HOOK_NAME if pre_push else HOOK_NAME
    folder = hooks_dir(cwd)
    target = folder / name
    legacy = folder / (name + LEGACY_SUFFIX)
    if not target.exists() and not target.is_symlink():
        return f"no {name} hook at {target}; nothing to do"
    if not _ours(target):
        raise HookError(f"{target} was not installed by ctxaction; left it alone")
    target.unlink()
    if legacy.exists() or legacy.is_symlink():
        legacy.rename(target)
        return f"ctxaction hook removed; restored the previous hook at {target}"
    return f"ctxaction hook removed from {target}"


def _ours(path: Path) -> bool:
    if path.is_symlink() or not path.is_file():
        return False
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def _write_executable(path: Path, text: str) -> None:
    from ctxaction.output import write_atomic

    write_atomic(path, text, executable=True)


def run() -> NoReturn:
    """The process entry point (``ctxaction-secrets``, ``python -m ctxaction.hook``).

    A hook is a fresh interpreter per commit, so two costs of an ordinary interpreter are cut
    (bench/secrets_bench.py, CPU time of a 10-file commit): the cyclic garbage collector, which
    sweeps the rule set and compiled patterns again and again while they load although none of
    them is garbage, runs 50 times less often (~1 ms; still bounded for a long push); and after
    :func:`main` the output is flushed and the process ends without the interpreter's teardown,
    freeing every module and object (~6 ms). Nothing of ours needs the teardown: there are no
    atexit handlers, and git processes are waited for before :func:`main` returns."""
    import gc

    gc.set_threshold(35_000, 10, 10)
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        code = code or 1  # the report could not be written: never pass silently
    os._exit(code)

if __name__ == "__main__":
    run()
