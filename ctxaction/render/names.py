"""Names in a package shown the way file contents are: with any secret in them redacted.

File contents are redacted before packing; a path (``keys/ghp_….txt``), a reason quoting a
commit subject, a rule file's name or a warning is not content, yet leaves the machine in every
format. :func:`displayed` returns the package with those names passed through the redactor, so
every renderer (and so every output) shows the same redacted names.
"""

from __future__ import annotations

import dataclasses

from ctxaction.model import Excluded, OmittedFile, Package, PackedFile, Skill
from ctxaction.secure import redact_text, scan


def _names(package: Package) -> list[str]:
    task = package.task
    out = [task.title, task.url, *task.labels, *package.warnings]
    for f in package.files:
        out += [f.path, *f.reasons]
    for o in package.omitted:
        out += [o.path, o.reason]
    for e in package.excluded:
        out += [e.path, e.reason]
    out += [r.path for r in package.rules]
    for s in package.skills:
        out += [s.path, s.name, s.description]
    out += [h.author for h in package.history]
    return out


def displayed(package: Package) -> Package:
    """``package`` itself when no name holds a secret (the usual case: one scan of all names),
    else a copy with every name redacted (file texts are left as they are: already redacted)."""
    if not scan("\n".join(_names(package))):
        return package
    r = redact_text
    task = package.task
    task = dataclasses.replace(task, title=r(task.title), url=r(task.url), labels=[r(x) for x in task.labels])
    return dataclasses.replace(
        package,
        task=task,
        warnings=[r(w) for w in package.warnings],
        files=[_file(f) for f in package.files],
        omitted=[OmittedFile(r(o.path), o.score, o.tokens, r(o.reason)) for o in package.omitted],
        excluded=[Excluded(r(e.path), r(e.reason)) for e in package.excluded],
        rules=[dataclasses.replace(x, path=r(x.path)) for x in package.rules],
        skills=[Skill(r(s.path), r(s.name), r(s.description)) for s in package.skills],
        history=[dataclasses.replace(h, author=r(h.author)) for h in package.history],
    )


def _file(f: PackedFile) -> PackedFile:
    return dataclasses.replace(f, path=redact_text(f.path), reasons=[redact_text(x) for x in f.reasons])
