# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Developer SaaS: monitoring, issue trackers, CMSs, maps, auth and other services."""

from __future__ import annotations

from ctxaction.secure.rule import END, Rule, keyed, prefixed
from ctxaction.secure.rule import UUID as _UUID

RULES: list[Rule] = [
    prefixed(
        "atlassian-api-token", "Atlassian (Jira/Confluence) API token", r"ATATT3[A-Za-z0-9_\-=]{186}",
        ("ATATT3",), entropy=3.5, tp=("JIRA_API_TOKEN=ATATT3<<b64url:186>>",), fp=("ATATT3<<lower:10>>",),
    ),
    keyed(
        "atlassian-legacy-token", "Atlassian / Jira / Confluence legacy API token",
        r"atlassian|confluence|jira", r"[A-Za-z0-9]{24}", ("atlassian", "confluence", "jira"), entropy=3.5,
        tp=("JIRA_API_TOKEN=<<alnum:24>>",), fp=("JIRA_PROJECT=CORE",),
    ),
    prefixed(
        "linear-api-key", "Linear API key", r"lin_api_[A-Za-z0-9]{40}", ("lin_api_",), entropy=3.5,
        tp=("LINEAR_API_KEY=lin_api_<<alnum:40>>",), fp=("lin_api_<<alnum:8>>",),
    ),
    prefixed(
        "notion-token", "Notion integration token", r"(?:secret_[A-Za-z0-9]{43}|ntn_[0-9]{11}[A-Za-z0-9]{35})",
        ("secret_", "ntn_"), entropy=3.5,
        tp=("NOTION_TOKEN=secret_<<alnum:43>>", "NOTION_KEY=ntn_<<digits:11>><<alnum:35>>"),
        fp=("secret_<<lower:10>>",),
    ),
    prefixed(
        "airtable-pat", "Airtable personal access token", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}", ("pat",),
        tp=("AIRTABLE_TOKEN=pat<<alnum:14>>.<<hex:64>>",), fp=("pat<<alnum:14>>.<<hex:8>>",),
    ),
    prefixed(
        "postman-api-token", "Postman API key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", ("PMAK-",),
        tp=("POSTMAN_API_KEY=PMAK-<<hex:24>>-<<hex:34>>",), fp=("PMAK-<<hex:8>>",),
    ),
    prefixed(
        "grafana-token", "Grafana cloud / service account / API key",
        r"glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{70,400}={0,3}",
        ("glc_", "glsa_", "eyJrIjoi"), entropy=3.5,
        tp=("GRAFANA_TOKEN=glsa_<<alnum:32>>_<<hex:8>>", "GRAFANA_CLOUD=glc_<<b64:60>>"),
        fp=("glsa_<<alnum:8>>",),
    ),
    prefixed(
        "dynatrace-token", "Dynatrace API token", r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}", ("dt0c01.",), entropy=3.5,
        tp=("DT_API_TOKEN=dt0c01.<<upnum:24>>.<<upnum:64>>",), fp=("dt0c01.<<upnum:8>>",),
    ),
    prefixed(
        "newrelic-key", "New Relic user/insert/license/browser key",
        r"NRAK-[A-Z0-9]{27}|NRII-[\w\-]{32}|NRJS-[a-f0-9]{19}|[a-f0-9]{36}NRAL|eu01xx[a-f0-9]{34}",
        ("NRAK-", "NRII-", "NRJS-", "NRAL", "eu01xx"), entropy=3.0,
        tp=("NEW_RELIC_API_KEY=NRAK-<<upnum:27>>", "NEW_RELIC_LICENSE_KEY=<<hex:36>>NRAL"),
        fp=("NRAK-<<upnum:8>>",),
        anchored=False,
    ),
    keyed(
        "datadog-api-key", "Datadog API / application key", r"datadog|dd[_\-]?(?:api|app|application)[_\-]?key",
        r"[a-f0-9]{32}|[a-f0-9]{40}", ("datadog", "dd_api", "dd_app", "dd-api", "dd-app", "ddapi", "ddapp"),
        tp=("DD_API_KEY=<<hex:32>>", "datadog_app_key: <<hex:40>>"), fp=("DD_API_KEY=<DATADOG_API_KEY>",),
    ),
    prefixed(
        "sentry-token", "Sentry auth / org token", r"sntry[su]_[A-Za-z0-9+/=_\-]{64,300}", ("sntrys_", "sntryu_"),
        entropy=4.0, tp=("SENTRY_AUTH_TOKEN=sntrys_<<b64:120>>",), fp=("sntrys_<<lower:8>>",),
    ),
    keyed(
        "sentry-legacy-token", "Sentry legacy auth token", r"sentry", r"[a-f0-9]{64}", ("sentry",),
        tp=("SENTRY_AUTH_TOKEN=<<hex:64>>",), fp=("SENTRY_ORG=acme",),
    ),
    keyed(
        "snyk-token", "Snyk API token", r"snyk", _UUID, ("snyk",),
        tp=("SNYK_TOKEN=<<uuid>>",), fp=("SNYK_ORG=acme",),
    ),
    prefixed(
        "sonarqube-token", "SonarQube / SonarCloud token", r"sq[pua]_[a-f0-9]{40}", ("sqp_", "squ_", "sqa_"),
        tp=("SONAR_TOKEN=sqp_<<hex:40>>",), fp=("sqp_<<hex:8>>",),
    ),
    keyed(
        "sonar-legacy-token", "SonarCloud legacy token", r"sonar", r"[a-f0-9]{40}", ("sonar",),
        tp=("SONAR_TOKEN=<<hex:40>>",), fp=("SONAR_HOST_URL=https://sonarcloud.io",),
    ),
    prefixed(
        "hubspot-token", "HubSpot private app token", r"pat-(?:na|eu)\d-" + _UUID, ("pat-na", "pat-eu"),
        tp=("HUBSPOT_TOKEN=pat-na1-<<uuid>>",), fp=("pat-na1-<<hex:8>>",),
    ),
    keyed(
        "hubspot-api-key", "HubSpot legacy API key", r"hubspot|hapikey", _UUID, ("hubspot", "hapikey"),
        tp=("HUBSPOT_API_KEY=<<uuid>>",), fp=("HUBSPOT_PORTAL=12345",),
    ),
    prefixed(
        "contentful-token", "Contentful personal access token", r"CFPAT-[\w\-]{43}", ("CFPAT-",), entropy=3.5,
        tp=("CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-<<b64url:43>>",), fp=("CFPAT-<<lower:8>>",),
    ),
    prefixed(
        "mapbox-secret-token", "Mapbox secret access token", r"sk\.eyJ[\w\-]{50,400}\.[\w\-]{20,40}", ("sk.eyJ",),
        entropy=4.0, tp=("MAPBOX_SECRET=sk.eyJ1<<b64url:60>>.<<b64url:22>>",), fp=("sk.eyJ1<<lower:8>>",),
    ),
    keyed(
        "okta-token", "Okta API token", r"okta", r"00[\w\-=]{40}", ("okta",), entropy=4.0,
        tp=("OKTA_API_TOKEN=00<<b64url:40>>",), fp=("OKTA_DOMAIN=acme.okta.com",),
    ),
    keyed(
        "auth0-client-secret", "Auth0 client secret", r"auth0", r"[\w\-]{64}", ("auth0",), entropy=4.0,
        tp=("AUTH0_CLIENT_SECRET=<<b64url:64>>",), fp=("AUTH0_DOMAIN=acme.eu.auth0.com",),
    ),
    prefixed(
        "tailscale-key", "Tailscale API / auth / OAuth key",
        r"tskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9]{10,20}-[A-Za-z0-9]{20,40}", ("tskey-",), entropy=3.5,
        tp=("TS_AUTHKEY=tskey-auth-<<alnum:17>>-<<alnum:33>>",), fp=("tskey-auth-xxxxx",),
    ),
    keyed(
        "ngrok-token", "ngrok auth token", r"ngrok", r"[1-3][A-Za-z0-9]{26}_[A-Za-z0-9]{21}", ("ngrok",),
        tp=("NGROK_AUTHTOKEN=2<<alnum:26>>_<<alnum:21>>",), fp=("NGROK_REGION=eu",),
    ),
    keyed(
        "algolia-admin-key", "Algolia admin API key", r"algolia", r"[a-f0-9]{32}", ("algolia",),
        tp=("ALGOLIA_ADMIN_KEY=<<hex:32>>",), fp=("ALGOLIA_APP_ID=<<upnum:10>>",),
    ),
    keyed(
        "intercom-token", "Intercom access token", r"intercom", r"[\w\-=]{60}", ("intercom",), entropy=4.0,
        tp=("INTERCOM_ACCESS_TOKEN=<<b64url:60>>",), fp=("INTERCOM_APP_ID=abc123",),
    ),
    keyed(
        "zendesk-token", "Zendesk API token", r"zendesk", r"[A-Za-z0-9]{40}", ("zendesk",), entropy=3.5,
        tp=("ZENDESK_API_TOKEN=<<alnum:40>>",), fp=("ZENDESK_SUBDOMAIN=acme",),
    ),
    keyed(
        "asana-token", "Asana personal access token", r"asana", r"[0-9]/[0-9]{16}:[A-Za-z0-9]{32}|[0-9]{16}",
        ("asana",), entropy=3.0, tp=("ASANA_TOKEN=1/<<digits:16>>:<<alnum:32>>",), fp=("ASANA_WORKSPACE=acme",),
    ),
    keyed(
        "launchdarkly-token", "LaunchDarkly SDK / API key", r"launchdarkly|ld[_\-]sdk",
        r"(?:sdk|api|mob)-" + _UUID, ("launchdarkly", "ld_sdk", "ld-sdk"),
        tp=("LAUNCHDARKLY_SDK_KEY=sdk-<<uuid>>",), fp=("LAUNCHDARKLY_PROJECT=default",),
    ),
    keyed(
        "segment-write-key", "Segment write key", r"segment", r"[A-Za-z0-9]{32}", ("segment",), entropy=3.8,
        tp=("SEGMENT_WRITE_KEY=<<alnum:32>>",), fp=("segment_size = 1024",),
    ),
    prefixed(
        "frameio-token", "Frame.io API token", r"fio-u-[\w\-=]{64}", ("fio-u-",), entropy=3.5,
        tp=("FRAMEIO_TOKEN=fio-u-<<b64url:64>>",), fp=("fio-u-<<lower:8>>",),
    ),
    prefixed(
        "readme-token", "ReadMe API key", r"rdme_[a-z0-9]{70}", ("rdme_",), entropy=3.5,
        tp=("README_API_KEY=rdme_<<lownum:70>>",), fp=("rdme_<<lownum:8>>",),
    ),
    prefixed(
        "prefect-token", "Prefect API key", r"pnu_[A-Za-z0-9]{36}", ("pnu_",), entropy=3.5,
        tp=("PREFECT_API_KEY=pnu_<<alnum:36>>",), fp=("pnu_<<alnum:8>>",),
    ),
    prefixed(
        "typeform-token", "Typeform personal token", r"tfp_[\w\-.=]{59}", ("tfp_",), entropy=3.5,
        tp=("TYPEFORM_TOKEN=tfp_<<b64url:59>>",), fp=("tfp_<<lower:8>>",),
    ),
    prefixed(
        "infracost-token", "Infracost API token", r"ico-[A-Za-z0-9]{32}", ("ico-",), entropy=3.5,
        tp=("INFRACOST_API_KEY=ico-<<alnum:32>>",), fp=("ico-<<alnum:8>>",),
    ),
    prefixed(
        "adafruit-io-key", "Adafruit IO key", r"aio_[A-Za-z0-9]{28}", ("aio_",), entropy=3.5,
        tp=("ADAFRUIT_IO_KEY=aio_<<alnum:28>>",), fp=("aio_<<alnum:8>>",),
    ),
    prefixed(
        "harness-token", "Harness API key / PAT", r"(?:pat|sat)\.[\w\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}",
        ("pat.", "sat."), entropy=3.5,
        tp=("HARNESS_API_KEY=pat.<<b64url:22>>.<<alnum:24>>.<<alnum:20>>",), fp=("pat.<<lower:8>>",),
    ),
    prefixed(
        "octopus-deploy-key", "Octopus Deploy API key", r"API-[A-Z0-9]{26}", ("API-",), entropy=3.5,
        tp=("OCTOPUS_API_KEY=API-<<upnum:26>>",), fp=("API-<<upnum:8>>",),
    ),
    prefixed(
        "maxmind-license-key", "MaxMind license key", r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk", ("_mmk",), entropy=3.5,
        anchored=False, tp=("MAXMIND_LICENSE_KEY=<<alnum:6>>_<<alnum:29>>_mmk",), fp=("GEOIP_DB=GeoLite2", "xxxxxx_xxxxxxxxxxxxxxxxxxxxxxxxxxxxx_mmk"),
    ),
    keyed(
        "twitter-bearer-token", "Twitter / X bearer token", r"twitter|x[_\-]api|x[_\-]bearer",
        r"A{22}[A-Za-z0-9%]{80,100}", ("twitter", "x_api", "x-api", "x_bearer", "x-bearer"),
        tp=("TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAAA<<alnum:90>>",), fp=("TWITTER_HANDLE=acme",),
    ),
    keyed(
        "twitter-secret", "Twitter / X API secret", r"twitter", r"[A-Za-z0-9]{45,50}", ("twitter",), entropy=4.0,
        tp=("TWITTER_API_SECRET=<<alnum:50>>",), fp=("TWITTER_HANDLE=acme",),
    ),
    prefixed(
        "facebook-access-token", "Facebook / Meta access token", r"EAA[MC][A-Za-z0-9]{100,300}", ("EAAM", "EAAC"),
        entropy=4.0, tp=("FB_ACCESS_TOKEN=EAAC<<alnum:150>>",), fp=("EAACxxxxxxxx",),
    ),
    keyed(
        "facebook-app-secret", "Facebook / Meta app secret", r"facebook|fb[_\-]app|meta[_\-]app",
        r"[a-f0-9]{32}", ("facebook", "fb_app", "fb-app", "meta_app", "meta-app"),
        tp=("FACEBOOK_APP_SECRET=<<hex:32>>",), fp=("FACEBOOK_APP_ID=<<digits:15>>",),
    ),
    prefixed(
        "dropbox-token", "Dropbox access token", r"sl\.[\w\-=]{130,160}|sl\.u\.[\w\-=]{130,1000}", ("sl.",),
        entropy=4.0, tp=("DROPBOX_TOKEN=sl.<<b64url:140>>",), fp=("sl.<<lower:8>>",),
    ),
    keyed(
        "linkedin-client-secret", "LinkedIn client secret", r"linkedin|linked[_\-]in", r"[A-Za-z0-9]{16}",
        ("linkedin", "linked_in", "linked-in"), entropy=3.2,
        tp=("LINKEDIN_CLIENT_SECRET=<<alnum:16>>",), fp=("LINKEDIN_PAGE=acme",),
    ),
    keyed(
        "twitch-token", "Twitch API token", r"twitch", r"[a-z0-9]{30}", ("twitch",), entropy=3.5,
        tp=("TWITCH_CLIENT_SECRET=<<lownum:30>>",), fp=("TWITCH_CHANNEL=acme",),
    ),
    keyed(
        "spotify-secret", "Spotify client secret", r"spotify", r"[a-f0-9]{32}", ("spotify",),
        tp=("SPOTIFY_CLIENT_SECRET=<<hex:32>>",), fp=("SPOTIFY_PLAYLIST=37i9dQZF1DXcBWIGoYBM5M",),
    ),
    keyed(
        "firebase-server-key", "Firebase Cloud Messaging server key", r"fcm|firebase",
        r"AAAA[\w\-]{7}:[\w\-]{140}", ("fcm", "firebase"),
        tp=("FCM_SERVER_KEY=AAAA<<b64url:7>>:<<b64url:140>>",), fp=("FIREBASE_PROJECT=acme",),
    ),
    keyed(
        "pagerduty-token", "PagerDuty API token", r"pagerduty|pager[_\-]duty", r"[A-Za-z0-9_+\-]{20}",
        ("pagerduty", "pager_duty", "pager-duty"), entropy=3.5,
        tp=("PAGERDUTY_TOKEN=<<alnum:20>>",), fp=("PAGERDUTY_SERVICE=P<<upnum:6>>",),
    ),
    keyed(
        "circleci-legacy-token", "CircleCI legacy API token", r"circle[_\-]?(?:ci)?[_\-]?token", r"[a-f0-9]{40}",
        ("circle",), tp=("CIRCLE_TOKEN=<<hex:40>>",), fp=("CIRCLE_BRANCH=main",),
    ),
    prefixed(
        "onepassword-service-account-token", "1Password service account token", r"ops_eyJ[A-Za-z0-9+/=_\-]{250,2000}",
        ("ops_eyJ",), entropy=4.0, reach=2100,
        tp=("OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ<<b64:300>>",), fp=("OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ<<lower:12>>",),
    ),
    prefixed(
        "openshift-user-token", "OpenShift user token", r"sha256~[\w\-]{43}", ("sha256~",), entropy=3.5,
        tp=("oc login --token=sha256~<<b64url:43>> --server=https://api.ocp.acme.io:6443",),
        fp=("sha256~<<lower:12>>", "image: registry.acme.io/app@sha256:<<hex:64>>"),
    ),
    prefixed(
        "adobe-client-secret", "Adobe (I/O) client secret", r"p8e-[A-Za-z0-9\-]{32}", ("p8e-",), entropy=3.5,
        tp=("ADOBE_CLIENT_SECRET=p8e-<<alnum:32>>",), fp=("p8e-<<lower:8>>",),
    ),
    prefixed(
        "defined-networking-api-token", "Defined Networking (Nebula) API token",
        r"dnkey-[a-z0-9=_\-]{26}-[a-z0-9=_\-]{52}", ("dnkey-",), entropy=3.5,
        tp=("DN_API_KEY=dnkey-<<lownum:26>>-<<lownum:52>>",), fp=("dnkey-<<lownum:8>>",),
    ),
    Rule(
        "sidekiq-enterprise-credential", "Sidekiq Pro / Enterprise gem source credential",
        r"(?:(?i:bundle_(?:enterprise|gems)__contribsys__com)[ \t]{0,4}[=:][ \t]{0,4}['\"]?|(?i:https?)://)"
        r"(?P<secret>[a-f0-9]{8}:[a-f0-9]{8})(?:(?=@(?:gems|enterprise)\.contribsys\.com)|" + END + ")",
        ("contribsys",), min_len=17,
        tp=("BUNDLE_ENTERPRISE__CONTRIBSYS__COM=<<hex:8>>:<<hex:8>>", "source 'https://<<hex:8>>:<<hex:8>>@enterprise.contribsys.com/'"),
        fp=("BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${SIDEKIQ_CREDS}",),
    ),
    keyed(
        "fastly-api-token", "Fastly API token", r"fastly", r"[A-Za-z0-9_\-]{32}", ("fastly",), entropy=3.5,
        tp=("FASTLY_API_TOKEN=<<b64url:32>>",), fp=("FASTLY_SERVICE_ID=acme-prod",),
    ),
]
