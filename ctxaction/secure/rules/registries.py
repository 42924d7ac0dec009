# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Package registries: npm, PyPI, RubyGems, NuGet, crates.io, Docker Hub, JFrog, Clojars …"""

from __future__ import annotations

from ctxaction.secure.checksums import npm_token_ok
from ctxaction.secure.placeholders import is_placeholder
from ctxaction.secure.rule import Rule, prefixed

RULES: list[Rule] = [
    prefixed(
        "npm-access-token", "npm access token", r"npm_[A-Za-z0-9]{36}", ("npm_",), validate=npm_token_ok,
        boundary=False,  # checksummed, like GitHub's tokens: one glued to a name is still one
        tp=("//registry.npmjs.org/:_authToken=<<npm>>", "NPM_TOKEN=<<npm>>", "cp ~/.npmrc backup_<<npm>>.txt"),
        fp=("NPM_TOKEN=npm_<<alnum:36>>", "npm_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ),
    Rule(
        "npmrc-auth", "npm/yarn registry credential in .npmrc (_authToken, _auth, _password)",
        r"(?i)(?:^|:)_(?:authToken|auth|password)[ \t]{0,3}=[ \t]{0,3}['\"]?(?P<secret>[A-Za-z0-9+/=_\-.]{20,600})",
        ("_authtoken", "_auth", "_password"), entropy=3.5,
        tp=("//npm.pkg.github.com/:_authToken=<<alnum:36>>", "_auth = <<b64:40>>="),
        fp=("//registry.npmjs.org/:_authToken=${NPM_TOKEN}",),
    ),
    prefixed(
        "pypi-upload-token", "PyPI / TestPyPI upload token", r"pypi-AgE[IN]cHlwaS5vcmc[\w\-]{50,1000}",
        ("pypi-AgE",), entropy=4.0,
        tp=("password = pypi-AgEIcHlwaS5vcmc<<b64url:150>>",), fp=("pypi-AgEIcHlwaS5vcmc<<lower:8>>",),
    ),
    prefixed(
        "rubygems-api-token", "RubyGems API key", r"rubygems_[a-f0-9]{48}", ("rubygems_",),
        tp=("GEM_HOST_API_KEY=rubygems_<<hex:48>>",), fp=("rubygems_<<hex:8>>",),
    ),
    prefixed(
        "nuget-api-key", "NuGet API key", r"oy2[a-z0-9]{43}", ("oy2",), entropy=3.5,
        tp=("dotnet nuget push pkg.nupkg --api-key oy2<<lownum:43>>",), fp=("oy2<<lownum:8>>",),
    ),
    Rule(
        "nuget-config-password", "Password in a NuGet.config packageSourceCredentials entry",
        r"(?i)<add key=\"(?:ClearTextPassword|Password)\"\s{1,4}value=\"(?P<secret>[^\"]{8,200})\"",
        ("cleartextpassword", "password"), entropy=2.5, check=lambda s, ctx: not is_placeholder(s),
        tp=('<add key="ClearTextPassword" value="<<pw:20>>" />',),
        fp=('<add key="ClearTextPassword" value="%FEED_PASSWORD%" />',),
    ),
    prefixed(
        "crates-io-token", "crates.io API token", r"cio[A-Za-z0-9]{32}", ("cio",), entropy=3.5,
        tp=("CARGO_REGISTRY_TOKEN=cio<<alnum:32>>",), fp=("cio<<lower:8>>",),
    ),
    prefixed(
        "dockerhub-pat", "Docker Hub personal access token", r"dckr_(?:pat|oat)_[\w\-]{27,32}", ("dckr_",),
        entropy=3.5, tp=("DOCKERHUB_TOKEN=dckr_pat_<<b64url:27>>",), fp=("dckr_pat_<<lower:8>>",),
    ),
    Rule(
        "docker-config-auth", "Registry credential in a Docker config.json (auths.*.auth)",
        r"\"auth\"[ \t]{0,3}:[ \t]{0,3}\"(?P<secret>[A-Za-z0-9+/]{16,400}={0,2})\"", ("\"auth\"",), entropy=3.5,
        tp=('{"auths": {"ghcr.io": {"auth": "<<b64:48>>"}}}',), fp=('{"auths": {"ghcr.io": {"auth": ""}}}',),
    ),
    prefixed(
        "jfrog-token", "JFrog Artifactory API key / identity token",
        r"AKCp[A-Za-z0-9]{69}|cmVmdGtuOjAxOj[A-Za-z0-9]{40,60}", ("AKCp", "cmVmdGtuOjAxOj"), entropy=3.5,
        tp=("ARTIFACTORY_API_KEY=AKCp<<alnum:69>>", "JFROG_TOKEN=cmVmdGtuOjAxOj<<alnum:50>>"),
        fp=("AKCp<<alnum:10>>",),
    ),
    prefixed(
        "clojars-token", "Clojars deploy token", r"CLOJARS_[a-z0-9]{60}", ("CLOJARS_",), entropy=3.5,
        tp=("CLOJARS_PASSWORD=CLOJARS_<<lownum:60>>",), fp=("CLOJARS_USERNAME",),
    ),
    prefixed(
        "hex-pm-key", "Hex.pm API key (Elixir)", r"(?i:hex[_\-]api[_\-]key)[ \t]{0,3}[=:][ \t]{0,3}['\"]?[a-f0-9]{32}",
        ("hex_api_key", "hex-api-key"), tp=("HEX_API_KEY=<<hex:32>>",), fp=("HEX_API_KEY=${HEX_KEY}",),
    ),
    prefixed(
        "packagist-token", "Packagist / Private Packagist token", r"packagist_[ou][ru]t_[a-f0-9]{68}",
        ("packagist_",), tp=("COMPOSER_AUTH_TOKEN=packagist_out_<<hex:68>>",), fp=("packagist_out_<<hex:8>>",),
    ),
]
