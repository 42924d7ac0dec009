# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Cloud IAM keys, secrets managers, code search and developer platforms not in :mod:`cloud`.

Formats come from the providers' own token documentation and the public catalogues (gitleaks'
rule list, trufflehog's detector names, GitHub secret scanning's supported patterns); the
examples are written here.
"""

from __future__ import annotations

from ctxaction.secure.rule import END, Rule, keyed, prefixed
from ctxaction.secure.rule import UUID as _UUID
from ctxaction.secure.rules.shape import named_random

RULES: list[Rule] = [
    prefixed(
        "aws-session-token", "AWS temporary session token (STS)",
        r"(?:FwoGZXIvYXdzE|IQoJb3JpZ2luX2Vj|IQoJb3JpZ2luX2VjE)[A-Za-z0-9+/]{100,1200}={0,2}",
        ("FwoGZXIvYXdzE", "IQoJb3JpZ2lu"), entropy=4.0, reach=1400,
        tp=("aws_session_token = IQoJb3JpZ2luX2VjE<<b64:300>>", 'AWS_SESSION_TOKEN="FwoGZXIvYXdzE<<b64:200>>"'),
        fp=("IQoJb3JpZ2luX2Vj<<lower:12>>",),
    ),
    prefixed(
        "aws-bedrock-short-lived-key", "Amazon Bedrock short-term API key",
        r"bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%]{40,3000}", ("bedrock-api-key-",),
        entropy=4.0, reach=3100,
        tp=("AWS_BEARER_TOKEN_BEDROCK=bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t<<b64:200>>",),
        fp=("prefix = 'bedrock-api-key-'",),
    ),
    keyed(
        "tencent-secret-key", "Tencent Cloud secret key", r"tencent(?:cloud)?[_\-.]?(?:secret|sk)|tencent[_\-.]?(?:api)?[_\-.]?key",
        r"[A-Za-z0-9]{32}", ("tencent",), entropy=3.5,
        check=named_random,
        tp=("TENCENTCLOUD_SECRET_KEY=<<alnum:32>>", 'tencent_secret_key: "<<alnum:32>>"'),
        fp=("TENCENTCLOUD_REGION=ap-guangzhou",),
    ),
    keyed(
        "huawei-cloud-key", "Huawei Cloud access key / secret key", r"huawei(?:cloud)?[\w.\-]{0,20}?(?:ak|sk|key|secret)",
        r"[A-Z0-9]{20}|[A-Za-z0-9]{40}", ("huawei",), entropy=3.5,
        tp=("HUAWEICLOUD_SDK_AK=<<upnum:20>>", "huaweicloud_sk = '<<alnum:40>>'"),
        fp=("HUAWEICLOUD_REGION=cn-north-4",),
    ),
    prefixed(
        "scaleway-access-key", "Scaleway access key id", r"SCW[A-Z0-9]{17}", ("SCW",), entropy=3.3,
        tp=("SCW_ACCESS_KEY=SCW<<upnum:17>>",), fp=("SCWXXXXXXXXXXXXXXXXX",),
    ),
    keyed(
        "scaleway-secret-key", "Scaleway secret key", r"scaleway|scw[_\-]secret", _UUID, ("scaleway", "scw_secret", "scw-secret"),
        tp=("SCW_SECRET_KEY=<<uuid>>",), fp=("SCW_DEFAULT_REGION=fr-par",),
    ),
    keyed(
        "ibm-cos-hmac-key", "IBM Cloud Object Storage HMAC secret", r"cos[_\-]hmac[\w\-]{0,20}|ibm[_\-]cos[\w\-]{0,20}",
        r"[a-f0-9]{48}|[a-f0-9]{32}", ("cos_hmac", "cos-hmac", "ibm_cos", "ibm-cos"),
        tp=("IBM_COS_SECRET_ACCESS_KEY=<<hex:48>>",), fp=("IBM_COS_ENDPOINT=s3.us.cloud-object-storage.appdomain.cloud",),
    ),
    keyed(
        "azure-apim-subscription-key", "Azure API Management / Cognitive Services subscription key",
        r"ocp-apim-subscription-key|azure[\w.\-]{0,30}?(?:key|secret)|cognitive[\w.\-]{0,20}?key",
        r"[a-f0-9]{32}|[A-Za-z0-9]{84}", ("ocp-apim", "azure", "cognitive"),
        tp=('headers = {"Ocp-Apim-Subscription-Key": "<<hex:32>>"}', "AZURE_SPEECH_KEY=<<hex:32>>"),
        fp=("AZURE_TENANT_ID=<<uuid>>",),
    ),
    Rule(
        "azure-container-registry-password", "Azure Container Registry access key",
        rf"(?P<secret>[A-Za-z0-9+/]{{42}}\+ACR[A-Za-z0-9]{{6}}){END}", ("+ACR",), entropy=4.0, boundary=True,
        tp=("ACR_PASSWORD=<<b64:42>>+ACR<<alnum:6>>",), fp=("docker login acme.azurecr.io -p $ACR_PASSWORD",),
    ),
    prefixed(
        "onepassword-secret-key", "1Password account secret key",
        r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}", ("A3-",),
        entropy=3.0,
        tp=("OP_SECRET_KEY=A3-<<upnum:6>>-<<upnum:11>>-<<upnum:5>>-<<upnum:5>>-<<upnum:5>>",
            "secret key: A3-<<upnum:6>>-<<upnum:6>>-<<upnum:5>>-<<upnum:5>>-<<upnum:5>>-<<upnum:5>>"),
        fp=("A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX",),
    ),
    keyed(
        "infisical-token", "Infisical service token", r"infisical",
        r"st\.[a-f0-9]{24}\.[a-f0-9]{32}\.[a-f0-9]{32}", ("infisical",),
        tp=("INFISICAL_TOKEN=st.<<hex:24>>.<<hex:32>>.<<hex:32>>",), fp=("st.<<hex:8>>.<<hex:8>>",),
    ),
    keyed(
        "vault-legacy-token", "HashiCorp Vault legacy service token (s.…)", r"vault",
        r"s\.[A-Za-z0-9]{24}", ("vault",), entropy=3.5,
        tp=("VAULT_TOKEN=s.<<alnum:24>>", 'vault_token: "s.<<alnum:24>>"'), fp=("VAULT_ADDR=https://vault.acme.io:8200",),
    ),
    keyed(
        "hcp-client-secret", "HashiCorp Cloud Platform service principal secret", r"hcp[_\-]client[_\-]secret",
        r"[A-Za-z0-9_\-]{64}", ("hcp_client", "hcp-client"), entropy=4.0,
        tp=("HCP_CLIENT_SECRET=<<b64url:64>>",), fp=("HCP_CLIENT_ID=<<alnum:32>>",),
    ),
    keyed(
        "akeyless-access-key", "Akeyless access id", r"akeyless", r"p-[a-z0-9]{12,14}", ("akeyless",),
        tp=("AKEYLESS_ACCESS_ID=p-<<lownum:12>>",), fp=("AKEYLESS_GATEWAY=https://api.akeyless.io",),
    ),
    prefixed(
        "sourcegraph-cody-token", "Sourcegraph Cody gateway / local token", r"slk_[a-f0-9]{64}|sgp_local_[a-f0-9]{40}|sgd_[a-f0-9]{64}",
        ("slk_", "sgp_local_", "sgd_"), entropy=3.0,
        tp=("CODY_TOKEN=slk_<<hex:64>>", "SRC_ACCESS_TOKEN=sgp_local_<<hex:40>>"), fp=("slk_<<hex:8>>",),
    ),
    keyed(
        "sourcegraph-legacy-token", "Sourcegraph access token (40 hex, no prefix)", r"sourcegraph|src[_\-]access[_\-]token",
        r"[a-f0-9]{40}", ("sourcegraph", "src_access", "src-access"),
        tp=("SRC_ACCESS_TOKEN=<<hex:40>>", 'sourcegraph_token = "<<hex:40>>"'), fp=("SRC_ENDPOINT=https://sourcegraph.com",),
    ),
    prefixed(
        "artifactory-reference-token", "JFrog Artifactory reference token", r"cmVmd[A-Za-z0-9]{59}", ("cmVmd",),
        entropy=4.0, tp=("ARTIFACTORY_TOKEN=cmVmd<<alnum:59>>",), fp=("cmVmd<<lower:10>>",),
    ),
    keyed(
        "jfrog-keyed-token", "JFrog / Artifactory / Xray API key (73 chars) or identity token", r"jfrog|artifactory|bintray|xray",
        r"[A-Za-z0-9]{73}|[A-Za-z0-9]{64}", ("jfrog", "artifactory", "bintray", "xray"), entropy=4.0,
        check=named_random,
        tp=("ARTIFACTORY_API_KEY=<<alnum:73>>", "jfrog_token: <<alnum:64>>"), fp=("ARTIFACTORY_URL=https://acme.jfrog.io",),
    ),
    prefixed(
        "clickhouse-cloud-key", "ClickHouse Cloud API secret key", r"4b1d[A-Za-z0-9]{38}", ("4b1d",), entropy=4.0,
        tp=("CLICKHOUSE_KEY_SECRET=4b1d<<alnum:38>>",), fp=("color: #4b1d2e",),
    ),
    prefixed(
        "neon-api-key", "Neon database API key", r"napi_[a-z0-9]{64}", ("napi_",), entropy=3.5,
        tp=("NEON_API_KEY=napi_<<lownum:64>>",), fp=("napi_<<lower:8>>",),
    ),
    prefixed(
        "render-api-key", "Render API key", r"rnd_[A-Za-z0-9]{32}", ("rnd_",), entropy=3.5,
        tp=("RENDER_API_KEY=rnd_<<alnum:32>>",), fp=("rnd_<<lower:6>>",),
    ),
    prefixed(
        "deno-deploy-token", "Deno Deploy personal / organisation token", r"dd[pw]_[A-Za-z0-9]{36}", ("ddp_", "ddw_"),
        entropy=3.5, tp=("DENO_DEPLOY_TOKEN=ddp_<<alnum:36>>",), fp=("ddp_<<lower:6>>",),
    ),
    prefixed(
        "figma-token", "Figma personal access token", r"fig[dpu]_[\w\-=]{40,54}", ("figd_", "figp_", "figu_"),
        entropy=3.5, tp=("FIGMA_TOKEN=figd_<<b64url:40>>",), fp=("figd_<<lower:8>>",),
    ),
    prefixed(
        "posthog-personal-key", "PostHog personal API key", r"phx_[A-Za-z0-9_]{43,48}", ("phx_",), entropy=3.5,
        tp=("POSTHOG_PERSONAL_API_KEY=phx_<<alnum:43>>",), fp=("phx_<<lower:8>>",),
    ),
    prefixed(
        "rootly-api-key", "Rootly API key", r"rootly_[a-f0-9]{64}", ("rootly_",), tp=("ROOTLY_API_TOKEN=rootly_<<hex:64>>",),
        fp=("rootly_<<hex:8>>",),
    ),
    prefixed(
        "authress-key", "Authress service client access key",
        r"(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_\-][a-z0-9\-]{10,32}\.[A-Za-z0-9+/_=\-]{30,120}",
        (".acc_", ".acc-"), entropy=3.5, anchored=False,
        tp=("AUTHRESS_KEY=sc_<<lownum:12>>.<<lownum:5>>.acc_<<lownum:16>>.<<b64:60>>",), fp=("sc_main.cpp",),
    ),
    prefixed(
        "settlemint-token", "SettleMint access token", r"sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}", ("sm_aat_", "sm_pat_", "sm_sat_"),
        entropy=3.0, tp=("SETTLEMINT_TOKEN=sm_pat_<<alnum:16>>",), fp=("sm_pat_<<lower:4>>",),
    ),
    prefixed(
        "intra42-client-secret", "42 intranet OAuth client secret", r"s-s4t2(?:ud|af)-[a-f0-9]{64}", ("s-s4t2ud-", "s-s4t2af-"),
        tp=("FT_SECRET=s-s4t2ud-<<hex:64>>",), fp=("s-s4t2ud-<<hex:8>>",),
    ),
    Rule(
        "gitlab-session-cookie", "GitLab session cookie", r"_gitlab_session=(?P<secret>[0-9a-z]{32})", ("_gitlab_session=",),
        entropy=3.0, anchored=True,
        tp=("curl -b '_gitlab_session=<<lownum:32>>' https://gitlab.acme.io/api/v4/user",), fp=("_gitlab_session=<value>",),
    ),
    prefixed(
        "nightfall-api-key", "Nightfall API key", r"NF-[A-Za-z0-9]{32}", ("NF-",), entropy=3.5,
        tp=("NIGHTFALL_API_KEY=NF-<<alnum:32>>",), fp=("NF-<<upper:6>>",),
    ),
    prefixed(
        "ubidots-token", "Ubidots token", r"BBFF-[A-Za-z0-9]{30}", ("BBFF-",), entropy=3.5,
        tp=("UBIDOTS_TOKEN=BBFF-<<alnum:30>>",), fp=("BBFF-<<upper:6>>",),
    ),
    prefixed(
        "salad-cloud-key", "SaladCloud API key", r"salad_cloud_[A-Za-z0-9]{1,7}_[A-Za-z0-9]{20,235}", ("salad_cloud_",),
        entropy=3.5, tp=("SALAD_API_KEY=salad_cloud_<<alnum:4>>_<<alnum:40>>",), fp=("salad_cloud_api",),
    ),
    keyed(
        "trello-token", "Trello API key / token", r"trello", r"[a-f0-9]{32}|ATTA[a-f0-9]{60,70}|[a-f0-9]{64}", ("trello",),
        tp=("TRELLO_API_KEY=<<hex:32>>", "trello_token: ATTA<<hex:64>>"), fp=("TRELLO_BOARD=roadmap",),
    ),
    keyed(
        "asana-client", "Asana client id / secret", r"asana", r"[0-9]{16}|[a-z0-9]{32}", ("asana",),
        entropy=2.5, tp=("ASANA_CLIENT_ID=<<digits:16>>", "asana_secret = '<<lownum:32>>'"), fp=("ASANA_WORKSPACE=design",),
    ),
    keyed(
        "linear-client-secret", "Linear OAuth client secret", r"linear", r"[a-f0-9]{32}", ("linear",),
        tp=("LINEAR_CLIENT_SECRET=<<hex:32>>",), fp=("linear_gradient = 'to right'",),
    ),
    keyed(
        "looker-client", "Looker API client id / secret", r"looker", r"[A-Za-z0-9]{20}|[A-Za-z0-9]{24}", ("looker",),
        entropy=3.5, tp=("LOOKERSDK_CLIENT_SECRET=<<alnum:24>>",), fp=("LOOKERSDK_BASE_URL=https://acme.looker.com",),
    ),
    keyed(
        "confluent-key", "Confluent Cloud API key / secret", r"confluent", r"[A-Za-z0-9]{64}|[A-Z0-9]{16}", ("confluent",),
        entropy=3.3, tp=("CONFLUENT_CLOUD_API_SECRET=<<alnum:64>>", "confluent_api_key: <<upnum:16>>"),
        fp=("CONFLUENT_ENV=production",),
    ),
    keyed(
        "cisco-meraki-key", "Cisco Meraki API key", r"meraki", r"[0-9a-f]{40}", ("meraki",),
        check=named_random,
        tp=("MERAKI_DASHBOARD_API_KEY=<<hex:40>>",), fp=("MERAKI_ORG=acme",),
    ),
    keyed(
        "beamer-token", "Beamer API key", r"beamer", r"b_[A-Za-z0-9=_\-]{44}", ("beamer",), entropy=3.5,
        tp=("BEAMER_API_KEY=b_<<b64url:44>>",), fp=("BEAMER_PRODUCT=acme",),
    ),
    keyed(
        "keyed-service-token", "API key of a service named in its key (Airtable, Dropbox, Etsy, Flickr, FreshBooks, Finicity, Finnhub, NYTimes, Rapid API, Private AI, Twitch, Squarespace, Adafruit …)",
        r"airtable|dropbox|etsy|flickr|freshbooks|finicity|finnhub|nytimes|newyorktimes|rapidapi|private[_\-]?ai|twitch|squarespace|adafruit|bittrex|kucoin|gitter|droneci|codecov|typeform|frameio",
        r"[A-Za-z0-9_\-]{15,80}|" + _UUID,
        ("airtable", "dropbox", "etsy", "flickr", "freshbooks", "finicity", "finnhub", "nytimes", "newyorktimes", "rapidapi",
         "privateai", "private_ai", "private-ai", "twitch", "squarespace", "adafruit", "bittrex", "kucoin", "gitter", "droneci",
         "codecov", "typeform", "frameio"),
        entropy=3.3, check=named_random,
        tp=("DROPBOX_APP_SECRET=<<lownum:15>>", "AIRTABLE_API_KEY=<<alnum:17>>", 'etsyApiKey = "<<lownum:24>>"',
            "rapidapi_key: <<b64url:50>>", "FINNHUB_TOKEN=<<lownum:20>>", "SQUARESPACE_KEY=<<uuid>>"),
        fp=("DROPBOX_FOLDER=/backups/nightly", "etsy_shop_name = 'handmade-things'", "twitch_channel = 'somestreamer'"),
    ),
]
