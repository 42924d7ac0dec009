"""Source hosts and CI: GitHub, GitLab, Bitbucket, Azure DevOps, CI services."""

from __future__ import annotations

from ctxaction.secure.checksums import github_token_ok
from ctxaction.secure.rule import Rule, keyed, prefixed

_GH_KINDS = {
    "ghp": ("github-pat", "GitHub personal access token (classic)"),
    "gho": ("github-oauth", "GitHub OAuth access token"),
    "ghu": ("github-app-token", "GitHub app user-to-server token"),
    "ghs": ("github-app-installation-token", "GitHub app installation token"),
    "ghr": ("github-refresh-token", "GitHub refresh token"),
}

RULES: list[Rule] = [
    *(
        # No boundary: the CRC32 checksum leaves no look-alike to reject, and a token glued to a
        # name (a file `backup_ghp_….txt`, a title quoting it) is still the token.
        prefixed(
            rule_id, desc, rf"{prefix}_[A-Za-z0-9]{{36}}", (f"{prefix}_",), validate=github_token_ok,
            boundary=False,
            tp=(
                f'GITHUB_TOKEN="<<gh:{prefix}>>"', f"token: <<gh:{prefix}>>",
                f"saved to backup_<<gh:{prefix}>>.txt",
            ),
            fp=(f'token = "<<ghbad:{prefix}>>"', f"{prefix}_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
        )
        for prefix, (rule_id, desc) in _GH_KINDS.items()
    ),
    prefixed(
        "github-fine-grained-pat", "GitHub fine-grained personal access token",
        r"github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}", ("github_pat_",), entropy=3.5,
        tp=("export GH_TOKEN=github_pat_<<alnum:22>>_<<alnum:59>>",),
        fp=("github_pat_11AAAAAAAAAAAAAAAAAAAA_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",),
    ),
    prefixed(
        "gitlab-pat", "GitLab personal access token",
        r"glpat-[\w\-]{27,300}\.[0-9a-z]{9}|glpat-[\w\-]{20}(?:\.[\w\-]{2}\.[a-z0-9]{9})?",
        ("glpat-",), entropy=3.0,
        tp=("private_token: glpat-<<alnum:20>>", 'CI_TOKEN="glpat-<<b64url:20>>"'),
        fp=("glpat-xxxxxxxxxxxxxxxxxxxx", "glpat-<<alnum:12>>"),
    ),
    prefixed(
        "gitlab-token", "GitLab deploy/runner/CI/feed/OAuth token",
        r"(?:gldt|glrt|glcbt|glft|glimt|glagent|gloas|glsoat|glffct|glptt)-[\w\-]{20,300}(?:\.[0-9a-z]{9})?",
        ("gldt-", "glrt-", "glcbt-", "glft-", "glimt-", "glagent-", "gloas-", "glsoat-", "glffct-", "glptt-"),
        entropy=3.0,
        tp=("token = 'glrt-<<alnum:20>>'", "GLDT=gldt-<<b64url:24>>",
            "RUNNER_TOKEN=glrt-t1_<<b64url:30>>.<<lownum:9>>"),
        fp=("glrt-xxxxxxxxxxxxxxxxxxxx",),
    ),
    prefixed(
        "gitlab-runner-registration-token", "GitLab runner registration token",
        r"GR1348941[\w\-]{20}", ("GR1348941",), entropy=3.0,
        tp=("registration-token: GR1348941<<alnum:20>>",), fp=("GR1348941xxxxxxxxxxxxxxxxxxxx",),
    ),
    prefixed(
        "bitbucket-app-password", "Bitbucket / Atlassian app password", r"ATBB[A-Za-z0-9_=.\-]{32}",
        ("ATBB",), entropy=3.5,
        tp=("BITBUCKET_APP_PASSWORD=ATBB<<alnum:32>>",), fp=("ATBBXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",),
    ),
    keyed(
        "bitbucket-client-secret", "Bitbucket OAuth consumer secret", r"bitbucket", r"[a-z0-9=_\-]{64}",
        ("bitbucket",), entropy=3.5,
        tp=("bitbucket_client_secret = '<<lownum:64>>'",), fp=("bitbucket_secret = '<<lower:8>>'",),
    ),
    keyed(
        "azure-devops-pat", "Azure DevOps personal access token", r"(?:azure[_\-]?devops|ado|vsts|azdo)",
        r"[a-z2-7]{52}|[A-Za-z0-9]{84}", ("azure", "ado", "vsts", "azdo"), entropy=3.5,
        tp=("AZURE_DEVOPS_PAT=<<lower:52>>",), fp=("AZURE_DEVOPS_PAT=<<lower:12>>",),
    ),
    prefixed(
        "buildkite-token", "Buildkite agent/API token", r"bk(?:ua|ca)_[a-f0-9]{40}", ("bkua_", "bkca_"),
        entropy=3.0, tp=("BUILDKITE_API_TOKEN=bkua_<<hex:40>>",), fp=("bkua_<<hex:12>>",),
    ),
    prefixed(
        "circleci-token", "CircleCI personal API token", r"CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}",
        ("CCIPAT_",), entropy=3.0, tp=("CIRCLE_TOKEN=CCIPAT_<<alnum:22>>_<<hex:40>>",),
        fp=("CCIPAT_xxxxxxxx",),
    ),
    keyed(
        "travisci-token", "Travis CI access token", r"travis", r"[A-Za-z0-9]{22}", ("travis",), entropy=3.5,
        tp=("travis_api_token: <<alnum:22>>",), fp=("travis_api_token: ${TRAVIS_TOKEN}",),
    ),
    keyed(
        "codecov-token", "Codecov upload token", r"codecov", r"[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-"
        r"[a-f0-9]{4}-[a-f0-9]{12}|[a-f0-9]{32}", ("codecov",),
        tp=("CODECOV_TOKEN=<<uuid>>",), fp=("CODECOV_TOKEN=${{ secrets.CODECOV_TOKEN }}",),
    ),
    keyed(
        "droneci-token", "Drone CI access token", r"drone", r"[A-Za-z0-9]{32}", ("drone",), entropy=3.5,
        tp=("DRONE_TOKEN=<<alnum:32>>",), fp=("DRONE_TOKEN=<your-drone-token-goes-here>",),
    ),
    prefixed(
        "sourcegraph-token", "Sourcegraph access token", r"sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}", ("sgp_",),
        entropy=3.0, tp=("SRC_ACCESS_TOKEN=sgp_<<hex:40>>",), fp=("sgp_<<hex:10>>",),
    ),
]
