"""Where the hand-off lives in the workspace (the package files themselves are named in
:mod:`ctxaction.agents`, whose prompts point at them)."""

from __future__ import annotations

from ctxaction.agents import PACKAGE_DIR

# The line that lists the package folder in an excludes file.
EXCLUDE_LINE = f"/{PACKAGE_DIR}/"
# gemini-cli reads .gitignore files and .git/info/exclude, not core.excludesFile.
AGENT_EXCLUDES = ".git/ctxaction-exclude"
# Earlier versions wrote this file (``*``), which hid the package from gemini-cli.
OLD_GITIGNORE = f"{PACKAGE_DIR}/.gitignore"
