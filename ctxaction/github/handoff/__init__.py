"""File-first hand-off to a coding agent: the package as files in the workspace plus a pointer.

Hosts fail on big prompts (claude-code-action passes them through environment variables and
breaks past the runner's argument limit), so every action run writes

- ``.ctxaction/package.md`` (the package) and ``.ctxaction/package.json`` (the manifest),
- ``.ctxaction/prompt.md`` for hosts that read a prompt file (codex, gemini, generic),

kept out of commits without hiding them from the agent (:mod:`.excludes`): a
``.gitignore`` would make gemini-cli skip them (it honours ``.gitignore`` files and
``.git/info/exclude``, ``respectGitIgnore`` defaulting to true), so the folder is listed in
``.git/info/exclude`` (or, for gemini, in an excludes file named by the checkout's
``core.excludesFile``, which gemini-cli does not read). Files are written by the safe writer:
0644 / 0755 and owned by the workspace's owner, because the container runs as root and the
agent's steps after it run as the runner user (codex-action drops sudo first).

and reports outputs small enough for ``$GITHUB_OUTPUT``: paths, sizes, the commit packaged, the
pointer sentence, the files with scores and reasons, and the package inline, capped. Nothing is
ever written to ``.claude/``, ``CLAUDE.md`` or ``.mcp.json``: hosts restore those from the base
branch and treat them as their own configuration.

One module per job: :mod:`.paths` (where the files go), :mod:`.write` (writing them and
collecting the outputs), :mod:`.manifest` (the files output), :mod:`.inline` (the package
inline, capped), :mod:`.excludes` (keeping them out of commits), :mod:`.preset` (which agent).
"""
