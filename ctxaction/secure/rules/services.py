# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Logging, monitoring and database services; payment, messaging and AI providers beyond the
big ones in :mod:`payments`, :mod:`messaging` and :mod:`ai`.

Formats come from the providers' own documentation and the public catalogues (gitleaks' rule
list, trufflehog's detector names, GitHub secret scanning's supported patterns); the examples
are written here.
"""

from __future__ import annotations

from ctxaction.secure.rule import UUID as _UUID
from ctxaction.secure.rule import Rule, keyed, prefixed
from ctxaction.secure.rules.shape import named_random

RULES: list[Rule] = [
    # Logging, monitoring, databases
    prefixed(
        "newrelic-extra-key", "New Relic browser / Insights query / mobile key",
        r"NRBR-[a-f0-9]{19}|NRIQ-[\w\-]{25,32}|eu01xx[a-f0-9]{34}-NRMA|[a-f0-9]{40}-NRMA", ("NRBR-", "NRIQ-", "-NRMA"),
        entropy=3.0, anchored=False,
        tp=("NEW_RELIC_BROWSER_KEY=NRBR-<<hex:19>>", "NR_QUERY_KEY=NRIQ-<<b64url:28>>", "NR_MOBILE_TOKEN=<<hex:40>>-NRMA"),
        fp=("NRBR-<<hex:6>>",),
    ),
    keyed(
        "newrelic-keyed-key", "New Relic license / user key named as such", r"new[_\-.]?relic",
        r"[A-Za-z0-9]{64}|[a-f0-9]{40}|NRAK-[A-Za-z0-9]{27}|NRII-[\w\-]{32}|NRJS-[a-f0-9]{19}", ("newrelic", "new_relic", "new-relic", "new.relic"),
        tp=("NEW_RELIC_LICENSE_KEY=<<hex:40>>", "newrelic_user_key: NRAK-<<lownum:27>>"), fp=("NEW_RELIC_APP_NAME=shop",),
    ),
    keyed(
        "sumologic-key", "Sumo Logic access id / access key", r"sumo(?:logic)?",
        r"su[A-Za-z0-9]{12}|[A-Za-z0-9]{64}", ("sumo",), entropy=3.0,
        check=named_random,
        tp=("SUMO_ACCESS_ID=su<<alnum:12>>", "SUMOLOGIC_ACCESS_KEY=<<alnum:64>>"), fp=("SUMO_ENDPOINT=https://api.sumologic.com",),
    ),
    keyed(
        "splunk-hec-token", "Splunk HTTP Event Collector token", r"splunk[\w.\-]{0,20}?(?:token|hec|key)|hec[_\-]token",
        _UUID + "|" + _UUID.replace("a-f", "A-F"), ("splunk", "hec_token", "hec-token"),
        tp=("SPLUNK_HEC_TOKEN=<<uuid>>",), fp=("SPLUNK_HEC_URL=https://splunk.acme.io:8088",),
    ),
    keyed(
        "monitoring-service-key", "API key of a monitoring / logging service (Honeycomb, Rollbar, Bugsnag, Loggly, Logz.io, Papertrail, Mezmo, Better Stack, Lightstep, Raygun, Airbrake, Instana, Checkly, Elastic Cloud)",
        r"honeycomb|rollbar|bugsnag|loggly|logz(?:io)?|papertrail|logdna|mezmo|betterstack|logtail|lightstep|raygun|airbrake|instana|checkly|elastic[_\-]?cloud",
        r"hc[a-z]{2}c?_[A-Za-z0-9]{20,64}|[a-f0-9]{32}|[A-Za-z0-9]{22}|[A-Za-z0-9_\-]{24,64}|" + _UUID,
        ("honeycomb", "rollbar", "bugsnag", "loggly", "logz", "papertrail", "logdna", "mezmo", "betterstack", "logtail",
         "lightstep", "raygun", "airbrake", "instana", "checkly", "elastic_cloud", "elastic-cloud", "elasticcloud"),
        entropy=3.3,
        check=named_random,
        tp=("HONEYCOMB_API_KEY=<<alnum:22>>", "ROLLBAR_ACCESS_TOKEN=<<hex:32>>", "bugsnag_api_key: <<hex:32>>",
            "LOGZIO_TOKEN=<<alnum:32>>", "LOGTAIL_SOURCE_TOKEN=<<alnum:24>>"),
        fp=("ROLLBAR_ENV=production", "honeycomb_dataset = 'frontend-web-prod'"),
    ),
    prefixed(
        "axiom-token", "Axiom API / personal token", r"xa[ap]t-" + _UUID, ("xaat-", "xapt-"),
        tp=("AXIOM_TOKEN=xaat-<<uuid>>",), fp=("xaat-<<hex:8>>",),
    ),
    prefixed(
        "honeybadger-token", "Honeybadger personal auth token", r"hbp_[A-Za-z0-9]{36}", ("hbp_",), entropy=3.5,
        tp=("HONEYBADGER_AUTH_TOKEN=hbp_<<alnum:36>>",), fp=("hbp_<<lower:6>>",),
    ),
    keyed(
        "mongodb-atlas-key", "MongoDB Atlas API private key", r"atlas[\w.\-]{0,20}?(?:private|secret)|mongodb[_\-]atlas",
        _UUID, ("atlas", "mongodb_atlas", "mongodb-atlas"),
        tp=("MONGODB_ATLAS_PRIVATE_KEY=<<uuid>>", "atlas_private_key: <<uuid>>"), fp=("MONGODB_ATLAS_PROJECT=analytics",),
    ),
    keyed(
        "database-service-key", "API key of a hosted database (Upstash, Aiven, Redis Cloud, Fauna, Xata, Turso, Cockroach Cloud, Couchbase Capella, Algolia search)",
        r"upstash|aiven|redis[_\-]?cloud|fauna(?:db)?|xata|turso|cockroach|capella",
        r"fn[A-Za-z0-9_\-]{38}|xau_[A-Za-z0-9]{32,40}|[A-Za-z0-9+/=_\-]{32,400}", ("upstash", "aiven", "rediscloud", "redis_cloud", "redis-cloud",
         "fauna", "xata", "turso", "cockroach", "capella"),
        entropy=3.8,
        check=named_random,
        tp=("UPSTASH_REDIS_REST_TOKEN=<<b64url:60>>", "FAUNA_SECRET=fn<<b64url:38>>", "XATA_API_KEY=xau_<<alnum:36>>",
            "AIVEN_TOKEN=<<b64:120>>"),
        fp=("UPSTASH_REDIS_REST_URL=https://eu1-acme-1234.upstash.io", "TURSO_DATABASE_URL=libsql://acme.turso.io"),
    ),
    Rule(
        "cloudinary-url", "Cloudinary URL with API secret", r"cloudinary://\d{6,20}:(?P<secret>[\w\-]{20,40})@[\w\-]+",
        ("cloudinary://",), entropy=3.5, anchored=True,
        tp=("CLOUDINARY_URL=cloudinary://<<digits:15>>:<<b64url:27>>@acme",), fp=("CLOUDINARY_URL=cloudinary://KEY:SECRET@cloud",),
    ),
    # Payments
    prefixed(
        "checkout-secret-key", "Checkout.com secret key", r"sk_sbox_[a-z2-7]{26}[a-z2-7*#$=]",
        ("sk_sbox_",), entropy=3.5,
        tp=("CKO_SECRET_KEY=sk_sbox_<<lower:26>>=",), fp=("sk_sbox_<<lower:6>>",),
    ),
    prefixed(
        "paddle-api-key", "Paddle API key", r"pdl_(?:live|sdbx)_apikey_[a-z0-9]{26}_[A-Za-z0-9]{22}_[A-Za-z0-9]{3}",
        ("pdl_live_", "pdl_sdbx_"), entropy=3.5,
        tp=("PADDLE_API_KEY=pdl_live_apikey_<<lownum:26>>_<<alnum:22>>_<<alnum:3>>",), fp=("pdl_live_apikey_",),
    ),
    keyed(
        "mollie-api-key", "Mollie API key", r"mollie", r"(?:live|test)_[A-Za-z0-9]{30}", ("mollie",), entropy=3.5,
        tp=("MOLLIE_API_KEY=live_<<alnum:30>>",), fp=("MOLLIE_PROFILE=pfl_<<alnum:6>>",),
    ),
    prefixed(
        "pagarme-key", "Pagar.me API key", r"ak_(?:live|test)_[A-Za-z0-9]{30}", ("ak_live_", "ak_test_"), entropy=3.5,
        tp=("PAGARME_API_KEY=ak_live_<<alnum:30>>",), fp=("ak_live_<<lower:6>>",),
    ),
    prefixed(
        "ramp-credential", "Ramp client id / secret", r"ramp_(?:id|sec)_[A-Za-z0-9]{40,48}", ("ramp_id_", "ramp_sec_"),
        entropy=3.5, tp=("RAMP_CLIENT_SECRET=ramp_sec_<<alnum:48>>",), fp=("ramp_sec_<<lower:6>>",),
    ),
    prefixed(
        "stripe-payment-intent-secret", "Stripe PaymentIntent client secret", r"pi_[A-Za-z0-9]{24}_secret_[A-Za-z0-9]{25}",
        ("_secret_",), entropy=3.5, anchored=False, tp=('clientSecret: "pi_<<alnum:24>>_secret_<<alnum:25>>"',), fp=("pi_<<alnum:24>>",),
    ),
    keyed(
        "lob-api-key", "Lob API key", r"lob", r"(?:live|test)_(?:pub_)?[a-f0-9]{31,35}",
        ("lob_", "lob-", "lobapi", "lobkey"),
        tp=("LOB_API_KEY=live_<<hex:35>>", "lob_key: test_pub_<<hex:31>>"), fp=("LOB_ENV=live",),
    ),
    keyed(
        "plaid-keyed", "Plaid client id / access token", r"plaid",
        r"access-(?:sandbox|development|production)-" + _UUID + r"|[a-f0-9]{24}", ("plaid",),
        tp=("PLAID_CLIENT_ID=<<hex:24>>",), fp=("PLAID_ENV=sandbox",),
    ),
    keyed(
        "wise-api-token", "Wise (TransferWise) API token", r"wise|transferwise", _UUID, ("wise_", "wise-", "wiseapi", "transferwise"),
        tp=("WISE_API_TOKEN=<<uuid>>",), fp=("WISE_PROFILE=personal",),
    ),
    # Messaging
    prefixed(
        "pubnub-key", "PubNub publish / secret key", r"(?:pub|sec)-c-" + _UUID.replace("a-f0-9", "a-z0-9"), ("pub-c-", "sec-c-"),
        entropy=3.0, tp=("PUBNUB_SECRET_KEY=sec-c-<<uuid>>", "PUBNUB_PUBLISH_KEY=pub-c-<<uuid>>"), fp=("pub-c-<<hex:8>>",),
    ),
    keyed(
        "ably-api-key", "Ably API key", r"ably", r"[\w\-]{6}\.[\w\-]{6}:[\w\-]{39,43}",
        ("ably_", "ably-", "ablyapi", "ablykey"), entropy=3.5,
        tp=("ABLY_API_KEY=<<alnum:6>>.<<alnum:6>>:<<b64url:43>>",), fp=("ABLY_CHANNEL=orders",),
    ),
    keyed(
        "messaging-service-key", "API key of a messaging service (Pusher, Plivo, Sinch, Stream, Line, Webex, Mandrill, SparkPost, Mailjet, Postmark, Mailersend, Resend, Customer.io, OneSignal, Telnyx, Vonage, Freshdesk)",
        r"pusher|plivo|sinch|stream[_\-]?(?:chat|io)|getstream|line[_\-]channel|webex|mandrill|sparkpost|mailjet|mailersend|customerio|customer[_\-]io|onesignal|telnyx|freshdesk",
        r"md-[\w\-]{22}|KEY[0-9A-Fa-f]{32}_[A-Za-z0-9]{22}|[A-Za-z0-9+/=_\-]{20,180}", ("pusher", "plivo", "sinch", "stream_chat", "stream-chat", "streamchat",
         "stream_io", "streamio", "getstream", "line_channel", "line-channel", "webex", "mandrill", "sparkpost", "mailjet",
         "mailersend", "customerio", "customer_io", "customer-io", "onesignal", "telnyx", "freshdesk"),
        entropy=3.5,
        check=named_random,
        tp=("PUSHER_APP_SECRET=<<hex:20>>", "MANDRILL_API_KEY=md-<<b64url:22>>", "SPARKPOST_API_KEY=<<hex:40>>",
            "TELNYX_API_KEY=KEY<<HEX:32>>_<<alnum:22>>", "LINE_CHANNEL_ACCESS_TOKEN=<<b64:172>>"),
        fp=("PUSHER_CLUSTER=eu", "mailjet_template_name = 'welcome_email_v2'"),
    ),
    keyed(
        "resend-api-key", "Resend API key", r"resend", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}", ("resend",), entropy=3.5,
        tp=("RESEND_API_KEY=re_<<alnum:8>>_<<alnum:24>>",), fp=("re_<<lower:8>>_compile",),
    ),
    keyed(
        "telegram-keyed-token", "Telegram bot token named as such", r"telegr(?:am)?", r"\d{5,16}:A[\w\-]{34}", ("telegr",),
        entropy=3.5, tp=("TELEGRAM_TOKEN=<<digits:7>>:A<<b64url:34>>",), fp=("TELEGRAM_CHAT_ID=-100<<digits:9>>",),
    ),
    keyed(
        "discord-keyed-id", "Discord application id / public key / client secret named as such", r"discord",
        r"[a-f0-9]{64}|[0-9]{18,19}", ("discord",),
        entropy=2.5, tp=("DISCORD_PUBLIC_KEY=<<hex:64>>", "discord_client_id: <<digits:18>>"), fp=("DISCORD_GUILD=general",),
    ),
    prefixed(
        "zapier-webhook-url", "Zapier catch hook URL", r"https://hooks\.zapier\.com/hooks/catch/\d{5,12}/[a-z0-9]{5,10}/?",
        ("hooks.zapier.com",), anchored=False, tp=("ZAP_URL=https://hooks.zapier.com/hooks/catch/<<digits:8>>/<<lownum:7>>/",),
        fp=("https://hooks.zapier.com/hooks/catch/",),
    ),
    Rule(
        "google-chat-webhook", "Google Chat incoming webhook URL",
        r"https://chat\.googleapis\.com/v1/spaces/[\w\-]{8,20}/messages\?key=[\w\-]{39}&token=(?P<secret>[\w\-%=]{40,60})",
        ("chat.googleapis.com",), entropy=3.5,
        tp=("WEBHOOK=https://chat.googleapis.com/v1/spaces/<<alnum:11>>/messages?key=AIza<<b64url:35>>&token=<<b64url:43>>%3D",),
        fp=("https://chat.googleapis.com/v1/spaces/SPACE/messages?key=KEY&token=TOKEN",),
    ),
    Rule(
        "facebook-app-access-token", "Facebook app access token (app id | app secret)",
        r"(?<![\w|])\d{15,16}(?:\||%7C)(?P<secret>[\w\-]{27,40})(?![\w\-])", ("facebook", "graph.facebook", "fb_"), entropy=3.5,
        tp=("facebook_token = '<<digits:15>>|<<b64url:32>>'",), fp=("facebook_pixel_ids = '<<digits:15>>|<<digits:15>>'",),
    ),
    keyed(
        "mapbox-public-token", "Mapbox access token named as such (pk.)", r"mapbox", r"pk\.[A-Za-z0-9\-_]{50,400}\.[A-Za-z0-9\-_]{20,40}",
        ("mapbox",), entropy=4.0, tp=("MAPBOX_ACCESS_TOKEN=pk.eyJ1<<b64url:60>>.<<b64url:22>>",), fp=("MAPBOX_STYLE=mapbox://styles/acme/streets",),
    ),
    # AI providers
    prefixed(
        "openrouter-api-key", "OpenRouter API key", r"sk-or-v1-[a-f0-9]{64}", ("sk-or-v1-",),
        tp=("OPENROUTER_API_KEY=sk-or-v1-<<hex:64>>",), fp=("sk-or-v1-<<hex:8>>",),
    ),
    prefixed(
        "nvidia-api-key", "NVIDIA NGC / NIM API key", r"nvapi-[\w\-]{64}", ("nvapi-",), entropy=4.0,
        tp=("NVIDIA_API_KEY=nvapi-<<b64url:64>>",), fp=("nvapi-<<lower:8>>",),
    ),
    keyed(
        "ai-service-key", "API key of an AI service named in its key (Together, Fireworks, Voyage, AssemblyAI, Deepgram, Stability, Runway, Jina, Gemini, Cerebras, SambaNova, Novita, Leonardo)",
        r"together(?:ai)?|fireworks|voyage|assemblyai|deepgram|stability|runwayml|jina|gemini|cerebras|sambanova|novita|leonardo",
        r"(?:fw_|pa-|jina_|csk-)?[A-Za-z0-9_\-]{24,100}", ("together", "fireworks", "voyage", "assemblyai", "deepgram", "stability",
         "runwayml", "jina", "gemini", "cerebras", "sambanova", "novita", "leonardo"),
        entropy=3.5,
        check=named_random,
        tp=("TOGETHER_API_KEY=<<hex:64>>", "DEEPGRAM_API_KEY=<<hex:40>>", "GEMINI_API_KEY=<<b64url:39>>", "CEREBRAS_API_KEY=csk-<<lownum:48>>"),
        fp=("GEMINI_MODEL=gemini-2.5-pro-preview-latest", "stability_preset = 'photographic'"),
    ),
]
