# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Cloud providers: AWS, Google Cloud, Azure, Alibaba, DigitalOcean and other hosting platforms."""

from __future__ import annotations

from ctxaction.secure.entropy import char_classes
from ctxaction.secure.rule import END, Context, Rule, keyed, prefixed
from ctxaction.secure.rule import UUID as _UUID

# An access key id, then (after a separator, a line break or a short label) its secret: how a
# key pair is pasted into prose, comments and rule files ("AKIA… / …", "AKIA…:…").
_AWS_PAIR = (
    r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}[\"'`]?"
    r"(?:[ \t]{0,3}[/:,;|=][ \t]{0,3}|[ \t]{1,3}|[ \t]{0,3}\r?\n[ \t#/*]{0,8})"
    r"(?:(?i:and|secret(?:[ _\-]?access)?(?:[ _\-]?key)?|sk)[ \t]{0,3}[:=]?[ \t]{0,3})?[\"'`]?"
    rf"(?P<secret>[A-Za-z0-9/+]{{40}}){END}"
)


def _mixed(secret: str, ctx: Context) -> bool:
    """Random base64 of 40 characters uses upper, lower and digits; words and paths do not."""
    return char_classes(secret.replace("/", "").replace("+", "")) >= 3

RULES: list[Rule] = [
    prefixed(
        "aws-access-key-id", "AWS access key id", r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}",
        ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"), entropy=3.0,
        tp=("aws_access_key_id = AKIA<<b32:16>>", '"AccessKeyId": "ASIA<<b32:16>>"',
            '[keys.py] KEY = ("AKIA<<b32:8>>" "<<b32:8>>")'),
        fp=("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAXXXXXXXXXXXXXXXX",
            '[keys.py] KEY_PARTS = ["AKIA<<b32:8>>", "<<b32:8>>"]'),
    ),
    keyed(
        "aws-secret-access-key", "AWS secret access key",
        r"aws[_\-.]?(?:secret|sec)|secret[_\-]?access[_\-]?key|aws[_\-.]?(?:account|iam)?[_\-.]?key",
        r"[A-Za-z0-9/+]{40}",
        ("aws_", "aws-", "aws.", "awss", "awsk", "awsa", "awsi", "secret_access", "secretaccess", "secret-access"),
        entropy=4.0,
        tp=("aws_secret_access_key = <<b64:40>>", '"SecretAccessKey": "<<b64:40>>"'),
        fp=("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",),
    ),
    Rule(
        "aws-secret-access-key-pair", "AWS secret access key written right after its access key id",
        _AWS_PAIR, ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"), anchored=True, entropy=4.0, check=_mixed,
        tp=("[notes.md] Use AKIA<<b32:16>> / <<b64:40>> for the staging bucket.",
            "# creds: AKIA<<b32:16>>:<<b64:40>>", "[CLAUDE.md] AWS: `AKIA<<b32:16>>` and `<<b64:40>>`.",
            "aws configure set AKIA<<b32:16>>\n# <<b64:40>>"),
        fp=("[notes.md] AKIA<<b32:16>> / ConfigureTheBucketPolicyBeforeUploadingIt",
            "[notes.md] AKIA<<b32:16>> / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "AKIA<<b32:16>> src/components/widgets/forms/inputs/TextField"),
    ),
    prefixed(
        "aws-bedrock-api-key", "Amazon Bedrock API key", r"ABSK[A-Za-z0-9+/]{100,200}={0,2}", ("ABSK",),
        entropy=4.0, tp=("AWS_BEARER_TOKEN_BEDROCK=ABSK<<b64:120>>",), fp=("ABSK<<upper:20>>",),
    ),
    prefixed(
        "aws-mws-key", "Amazon MWS auth token", rf"amzn\.mws\.{_UUID}", ("amzn.mws.",),
        tp=("mws_token: amzn.mws.<<uuid>>",), fp=("amzn.mws.<<hex:8>>",),
    ),
    prefixed(
        "gcp-api-key", "Google / GCP / Firebase API key", r"AIza[\w\-]{35}", ("AIza",), entropy=3.5,
        tp=('GOOGLE_API_KEY="AIza<<b64url:35>>"', "apiKey: 'AIza<<b64url:35>>',"),
        fp=("AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",),
    ),
    prefixed(
        "gcp-oauth-client-secret", "Google OAuth client secret", r"GOCSPX-[\w\-]{28}", ("GOCSPX-",),
        entropy=3.5, tp=('"client_secret": "GOCSPX-<<b64url:28>>"',), fp=("GOCSPX-<<lower:8>>",),
    ),
    prefixed(
        "gcp-oauth-refresh-token", "Google OAuth refresh token", r"1//0[\w\-]{60,200}", ("1//0",),
        entropy=4.0, tp=('refresh_token: "1//0<<b64url:90>>"',), fp=("1//0<<lower:10>>",),
    ),
    prefixed(
        "gcp-oauth-access-token", "Google OAuth access token", r"ya29\.[\w\-]{50,300}", ("ya29.",),
        entropy=4.0, tp=("Authorization: Bearer ya29.<<b64url:120>>",), fp=("ya29.<<lower:10>>",),
    ),
    keyed(
        "gcp-service-account-key-id", "GCP service account private key id", r"private_key_id",
        r"[a-f0-9]{40}", ("private_key_id",),
        tp=('"private_key_id": "<<hex:40>>",',), fp=('"private_key_id": "<<hex:8>>",',),
    ),
    Rule(
        "azure-storage-account-key", "Azure storage / Cosmos DB account key",
        r"(?i)(?:AccountKey|account[_\-]?key|storage[_\-]?key|primary[_\-]?key|cosmos[_\-]?key)"
        r"[\w\-]{0,20}['\"]?[ \t]{0,4}[=:][ \t]{0,4}['\"]?(?P<secret>[A-Za-z0-9+/]{86}==)",
        ("accountkey", "account_key", "account-key", "storage", "primary", "cosmos"), entropy=4.5,
        tp=("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=<<b64:86>>==;EndpointSuffix=core.windows.net",),
        fp=("AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",),
    ),
    Rule(
        "azure-sas-key", "Azure Service Bus / Event Hubs / IoT shared access key",
        r"(?i)SharedAccessKey[ \t]{0,4}=[ \t]{0,4}(?P<secret>[A-Za-z0-9+/]{43}=)", ("sharedaccesskey",),
        entropy=4.0,
        tp=("Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=<<b64:43>>=",),
        fp=("SharedAccessKey=<key>",),
    ),
    Rule(
        "azure-sas-token", "Azure SAS token signature", r"(?:[?&]|^)sv=\d{4}-\d{2}-\d{2}&[^\s'\"]{0,300}?"
        r"sig=(?P<secret>[A-Za-z0-9%+/]{40,120}={0,2}|[A-Za-z0-9%]{40,120}(?:%3D){0,2})", ("sig=",),
        entropy=4.0, tp=("url = 'https://acme.blob.core.windows.net/c?sv=2022-11-02&ss=b&sp=r&sig=<<b64:43>>%3D'",),
        fp=("https://acme.blob.core.windows.net/c?sv=2022-11-02&sig=<signature>",),
    ),
    prefixed(
        "azure-ad-client-secret", "Azure AD (Entra ID) client secret",
        r"[a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.\-]{31,34}", ("Q~",), entropy=3.5,
        tp=('AZURE_CLIENT_SECRET="abc8Q~<<alnum:34>>"',), fp=("abc8Q~xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",),
        anchored=False,
    ),
    prefixed(
        "alibaba-access-key-id", "Alibaba Cloud access key id", r"LTAI[A-Za-z0-9]{20}", ("LTAI",),
        entropy=3.5, tp=("ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI<<alnum:20>>",), fp=("LTAIxxxxxxxxxxxxxxxxxxxx",),
    ),
    keyed(
        "alibaba-secret-key", "Alibaba Cloud access key secret", r"alibaba|aliyun|alicloud",
        r"[A-Za-z0-9]{30}", ("alibaba", "aliyun", "alicloud"), entropy=3.5,
        tp=("ALIBABA_CLOUD_ACCESS_KEY_SECRET=<<alnum:30>>",), fp=("ALIBABA_REGION=cn-hangzhou",),
    ),
    prefixed(
        "tencent-secret-id", "Tencent Cloud secret id", r"AKID[A-Za-z0-9]{32}", ("AKID",), entropy=3.5,
        tp=("TENCENTCLOUD_SECRET_ID=AKID<<alnum:32>>",), fp=("AKIDxxxxxxxx",),
    ),
    prefixed(
        "digitalocean-token", "DigitalOcean personal/OAuth/refresh token", r"do[por]_v1_[a-f0-9]{64}",
        ("dop_v1_", "doo_v1_", "dor_v1_"), entropy=3.0,
        tp=("DIGITALOCEAN_TOKEN=dop_v1_<<hex:64>>",), fp=("dop_v1_<<hex:10>>",),
    ),
    keyed(
        "heroku-api-key", "Heroku API key", r"heroku", rf"{_UUID}|HRKU-AA[\w\-]{{58}}", ("heroku",),
        tp=("HEROKU_API_KEY=<<uuid>>", "heroku_key: HRKU-AA<<b64url:58>>"), fp=("HEROKU_APP_NAME=my-app",),
    ),
    prefixed(
        "heroku-api-key-v2", "Heroku API key (HRKU- format)", r"HRKU-AA[\w\-]{58}", ("HRKU-AA",),
        entropy=3.5, tp=("token=HRKU-AA<<b64url:58>>",), fp=("HRKU-AA<<lower:8>>",),
    ),
    prefixed(
        "flyio-token", "Fly.io access token", r"(?:fo1_[\w\-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,300}={0,3})",
        ("fo1_", "fm1", "fm2"), entropy=4.0, tp=("FLY_API_TOKEN=fo1_<<b64url:43>>",), fp=("fo1_<<lower:8>>",),
    ),
    prefixed(
        "netlify-token", "Netlify personal access token", r"nfp_[A-Za-z0-9]{36}", ("nfp_",), entropy=3.5,
        tp=("NETLIFY_AUTH_TOKEN=nfp_<<alnum:36>>",), fp=("nfp_<<alnum:8>>",),
    ),
    keyed(
        "vercel-token", "Vercel access token", r"vercel|now[_\-]token", r"[A-Za-z0-9]{24}",
        ("vercel", "now_token", "now-token"), entropy=3.5,
        tp=("VERCEL_TOKEN=<<alnum:24>>",), fp=("VERCEL_ORG_ID=team_<<lower:4>>",),
    ),
    prefixed(
        "supabase-token", "Supabase access / service token", r"sb[pa]_[a-f0-9]{40}|sb_secret_[\w\-]{31,40}",
        ("sbp_", "sba_", "sb_secret_"), entropy=3.0,
        tp=("SUPABASE_ACCESS_TOKEN=sbp_<<hex:40>>",), fp=("sbp_<<hex:8>>",),
    ),
    prefixed(
        "planetscale-token", "PlanetScale API token / password / OAuth token",
        r"pscale_(?:tkn|pw|oauth)_[\w.=\-]{32,64}", ("pscale_",), entropy=3.5,
        tp=("DATABASE_PASSWORD=pscale_pw_<<b64url:43>>",), fp=("pscale_pw_<<lower:8>>",),
    ),
    prefixed(
        "doppler-token", "Doppler API token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}",
        ("dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."), entropy=3.5,
        tp=("DOPPLER_TOKEN=dp.st.<<alnum:43>>",), fp=("dp.st.<<lower:8>>",),
    ),
    prefixed(
        "pulumi-token", "Pulumi access token", r"pul-[a-f0-9]{40}", ("pul-",), entropy=3.0,
        tp=("PULUMI_ACCESS_TOKEN=pul-<<hex:40>>",), fp=("pul-<<hex:8>>",),
    ),
    prefixed(
        "terraform-cloud-token", "Terraform Cloud / HCP API token",
        r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9\-_=]{60,70}", ("atlasv1",), entropy=3.5,
        tp=('token = "<<alnum:14>>.atlasv1.<<b64url:67>>"',), fp=("xxxxxxxxxxxxxx.atlasv1.<<lower:4>>",),
        anchored=False,
    ),
    prefixed(
        "vault-token", "HashiCorp Vault service/batch token", r"hv[sbr]\.[\w\-]{24,300}", ("hvs.", "hvb.", "hvr."),
        entropy=3.5, tp=("VAULT_TOKEN=hvs.<<b64url:90>>",), fp=("hvs.<<lower:8>>",),
    ),
    prefixed(
        "databricks-token", "Databricks access token", r"dapi[a-f0-9]{32}(?:-\d)?", ("dapi",), entropy=3.0,
        tp=("DATABRICKS_TOKEN=dapi<<hex:32>>",), fp=("dapi<<hex:8>>",),
    ),
    keyed(
        "cloudflare-api-token", "Cloudflare API token / global API key", r"cloudflare|cf[_\-]api",
        r"[\w\-]{40}|[a-f0-9]{37}", ("cloudflare", "cf_api", "cf-api"), entropy=3.5,
        tp=("CLOUDFLARE_API_TOKEN=<<b64url:40>>", "cloudflare_api_key = '<<hex:37>>'"),
        fp=("CLOUDFLARE_ZONE=example.com",),
    ),
    prefixed(
        "cloudflare-origin-ca-key", "Cloudflare origin CA key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}", ("v1.0-",),
        entropy=3.0, tp=("CF_ORIGIN_CA_KEY=v1.0-<<hex:24>>-<<hex:146>>",), fp=("v1.0-<<hex:8>>",),
    ),
    keyed(
        "linode-token", "Linode / Akamai personal access token", r"linode", r"[a-f0-9]{64}", ("linode",),
        tp=("LINODE_TOKEN=<<hex:64>>",), fp=("LINODE_REGION=us-east",),
    ),
    prefixed(
        "scalingo-token", "Scalingo API token", r"tk-us-[\w\-]{48}", ("tk-us-",), entropy=3.5,
        tp=("SCALINGO_API_TOKEN=tk-us-<<b64url:48>>",), fp=("tk-us-<<lower:8>>",),
    ),
    prefixed(
        "yandex-token", "Yandex Cloud IAM / API / access key",
        r"t1\.[A-Z0-9a-z_\-]+[=]{0,2}\.[A-Z0-9a-z_\-]{86}[=]{0,2}|AQVN[A-Za-z0-9_\-]{35,38}|YC[A-Za-z0-9_\-]{38}",
        ("t1.", "AQVN", "YC"), entropy=3.5,
        tp=("YC_API_KEY=AQVN<<b64url:36>>",), fp=("YCxxxxxxxx",),
    ),
    keyed(
        "ibm-cloud-api-key", "IBM Cloud API key", r"ibm[_\-]?(?:cloud)?", r"[\w\-]{44}", ("ibm",), entropy=4.0,
        tp=("IBMCLOUD_API_KEY=<<b64url:44>>",), fp=("IBMCLOUD_REGION=us-south",),
    ),
]
