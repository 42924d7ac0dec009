"""The workspace checkout as a container action finds it: trusted, deepened, with PR heads as data.

- The workspace is mounted with the runner user's uid while the container runs as root, so git
  refuses it ("dubious ownership"): ``safe.directory`` is set through ``GIT_CONFIG_*``
  environment variables, inherited by every git call, with no config file written.
- ``actions/checkout`` fetches one commit by default, so history signals would see nothing: a
  shallow clone is deepened by a bounded ``git fetch --deepen`` (never ``--depth``, which can make
  a full clone shallow) and, when that fails, the caller warns and tells users ``fetch-depth: 0``.
- A PR's head is fetched into the object store from ``refs/pull/N/head`` and read from objects
  only (``open_repo(path, ref=sha)``): never checked out, never run.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Callable, Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path

from ctxaction.github.event import SHA_RE
from ctxaction.output import Owner
from ctxaction.repo import git
from ctxaction.repo.git import RepoError
from ctxaction.secure import quoted

FETCH_TIMEOUT = 180.0


def add_config(env: MutableMapping[str, str], key: str, value: str) -> None:
    """Add one ``git -c key=value`` for every git started with ``env`` (``GIT_CONFIG_*``)."""
    try:
        count = int(env.get("GIT_CONFIG_COUNT", "0"))
    except ValueError:
        count = 0
    pairs = {(env.get(f"GIT_CONFIG_KEY_{i}"), env.get(f"GIT_CONFIG_VALUE_{i}")) for i in range(count)}
    if (key, value) in pairs:
        return
    env[f"GIT_CONFIG_KEY_{count}"] = key
    env[f"GIT_CONFIG_VALUE_{count}"] = value
    env["GIT_CONFIG_COUNT"] = str(count + 1)


def trust_directory(path: Path, env: MutableMapping[str, str]) -> None:
    """Add ``path`` to git's ``safe.directory`` for this process and its children (via ``env``)."""
    add_config(env, "safe.directory", str(path))


@contextmanager
def credentials(root: Path, token: str, server_url: str = "") -> Iterator[None]:
    """Let fetches from ``origin`` on ``server_url`` authenticate with ``token`` meanwhile.

    Checkouts with ``persist-credentials: false`` (what zizmor recommends) leave no credentials
    behind; the header goes through the environment only, for the duration of the block, and not
    at all when the checkout did persist one (two Authorization headers are rejected).
    """
    prefix = (server_url or "https://github.com").rstrip("/") + "/"
    url = (git.try_run(root, ["remote", "get-url", "origin"]) or "").strip()
    persisted = git.try_run(root, ["config", "--get-regexp", r"^http\..*\.extraheader$"])
    if not token or not url.startswith(prefix) or persisted:
        yield
        return
    saved = dict(os.environ)
    basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
    add_config(os.environ, f"http.{prefix}.extraheader", f"AUTHORIZATION: basic {basic}")
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def require_checkout(root: Path) -> None:
    """Refuse a workspace that is not a git work tree (a job without ``actions/checkout``, or one
    that checked out into a ``path:``) with one line saying what to add; git's own message names
    the container's path and advises ``git init`` / ``--repo``, which a workflow cannot act on."""
    code, _, err = git.run_capture(root, ["rev-parse", "--show-toplevel"])
    if code != 0 and "not a git repository" in err.decode("utf-8", "replace"):
        raise RepoError(
            "the workspace holds no git checkout: add an actions/checkout step before this one "
            "(into the workspace itself, without `path:`; `fetch-depth: 0` for the history signals)"
        )


def is_shallow(root: Path) -> bool:
    """True for a shallow clone (``git rev-parse --is-shallow-repository``)."""
    return (git.try_run(root, ["rev-parse", "--is-shallow-repository"]) or "").strip() == "true"


def has_remote(root: Path, name: str = "origin") -> bool:
    """True when the repository has a remote called ``name``."""
    return name in (git.try_run(root, ["remote"]) or "").split()


def deepen(root: Path, commits: int) -> str | None:
    """Deepen a shallow clone by ``commits``; None on success, else why it failed (one line)."""
    if commits <= 0:
        return "deepening is switched off (history-depth: 0)"
    if not has_remote(root):
        return "the checkout has no 'origin' remote to fetch history from"
    try:
        git.run(
            root,
            ["fetch", "--quiet", "--no-tags", "--no-recurse-submodules", f"--deepen={commits}", "origin"],
            timeout=FETCH_TIMEOUT,
        )
    except RepoError as exc:
        return str(exc)
    return None


def has_commit(root: Path, sha: str) -> bool:
    """True when the object store holds commit ``sha``."""
    return git.try_run(root, ["cat-file", "-e", "--end-of-options", f"{sha}^{{commit}}"]) is not None


def fetch_pull_head(root: Path, number: int, sha: str, depth: int) -> str | None:
    """Make PR ``number``'s head commit ``sha`` readable; None on success, else why not.

    The ref is fetched without a destination (only ``FETCH_HEAD`` moves) and the pinned ``sha``
    is what gets packaged, even if the PR moved on meanwhile. In a shallow clone the fetch is
    shallow too (``--depth``), so it does not pull the whole history behind the PR.
    """
    why = _fetch(root, f"refs/pull/{int(number)}/head", sha, depth)
    if why == _NOT_SERVED:
        return f"refs/pull/{number}/head no longer reaches {sha[:12]} (the PR was force-pushed)"
    return why


def fetch_commit(root: Path, sha: str, depth: int) -> str | None:
    """Make commit ``sha`` readable by asking ``origin`` for it by id (GitHub serves any commit
    of the repository that way); None on success, else why not."""
    return _fetch(root, sha, sha, depth)


_NOT_SERVED = "origin did not send it"


def _fetch(root: Path, source: str, sha: str, depth: int) -> str | None:
    """Fetch ``source`` (a ref or a commit id) from ``origin`` as data, without a ref written,
    until commit ``sha`` is readable; shallow (``--depth``) in a shallow clone."""
    if not SHA_RE.match(sha):
        return f"not a commit id: {quoted(sha)}"
    if has_commit(root, sha):
        return None
    if not has_remote(root):
        return "the checkout has no 'origin' remote to fetch it from"
    args = ["fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head"]
    if is_shallow(root):
        args.append(f"--depth={max(1, depth)}")
    try:
        git.run(root, [*args, "--end-of-options", "origin", source], timeout=FETCH_TIMEOUT)
    except RepoError as exc:
        return str(exc)
    return None if has_commit(root, sha) else _NOT_SERVED


def prepare(
    root: Path,
    number: int,
    head_sha: str,
    base_sha: str,
    depth: int,
    *,
    info: Callable[[str], None],
    warn: Callable[[str], None],
) -> tuple[str | None, str | None]:
    """Deepen a shallow clone, make a PR's head readable; returns (ref, rules_ref) to build with.

    ``head_sha`` is empty for an issue. Rule files steer the agent, so for a PR they are read
    from the base commit (when present), never from the PR's own changes. Problems are warnings:
    the package is still built, from what the checkout has.
    """
    if is_shallow(root):
        why = deepen(root, depth)
        if why is None:
            info(f"shallow checkout deepened by {depth} commits")
        else:
            warn(
                f"shallow checkout and it could not be deepened ({why}): history signals are off; "
                "set `fetch-depth: 0` on actions/checkout"
            )
    if not head_sha:
        return None, None
    why = fetch_pull_head(root, number, head_sha, max(depth, 1))
    if why is not None:
        warn(
            f"the PR head {head_sha[:12]} could not be fetched ({why}): packaging the "
            "checked-out commit with the PR's changed files"
        )
        return None, None
    if not base_sha:
        return head_sha, None
    # The rules must come from the base: without it they would be read from the PR's own head.
    # A shallow checkout of the merge ref that was not deepened (history-depth: 0) lacks it.
    why = fetch_commit(root, base_sha, 1)
    if why is not None:
        warn(
            f"the PR base {base_sha[:12]} could not be fetched ({why}): the rule files are read "
            "from the PR head, which the pull request itself can change"
        )
        return head_sha, None
    return head_sha, base_sha


def give_back(root: Path, owner: Owner | None) -> int:
    """Hand what our git calls added under ``.git`` (fetched objects, packs, refs, the shallow
    file) to the workspace's ``owner``; returns how many entries changed hands.

    The container runs as root: without this, the runner user's next ``git fetch`` or checkout
    clean-up fails on root-owned object folders. Symlinks are never followed.
    """
    dot_git = root / ".git"
    if owner is None or dot_git.is_symlink() or not dot_git.is_dir():
        return 0
    changed = 0
    for folder, dirs, files in os.walk(dot_git, followlinks=False):
        for name in (*dirs, *files):
            path = os.path.join(folder, name)
            st = os.lstat(path)
            if st.st_uid != owner.uid or st.st_gid != owner.gid:
                os.lchown(path, owner.uid, owner.gid)
                changed += 1
    return changed
