# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Payments and commerce: Stripe, Square, PayPal/Braintree, Shopify, Plaid, Razorpay and peers."""

from __future__ import annotations

from ctxaction.secure.rule import Rule, keyed, prefixed

RULES: list[Rule] = [
    prefixed(
        "stripe-secret-key", "Stripe secret / restricted key", r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{20,247}",
        ("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"), entropy=3.5,
        tp=("STRIPE_SECRET_KEY=sk_live_<<alnum:24>>", "stripe.api_key = 'rk_live_<<alnum:99>>'",
            "Stripe::api_key = 'sk_test_<<alnum:24>>'",
            # Split across lines: the pieces are joined before matching (continued.py).
            '[billing.py] STRIPE_KEY = "sk_live_<<alnum:12>>" \\\n    "<<alnum:16>>"',
            "[config.yaml] stripe:\n  secret_key: sk_live_<<alnum:12>>\n    <<alnum:16>>"),
        fp=("sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "sk_test_<<lower:6>>",
            '[billing.py] PREFIXES = ("sk_live_",\n            "<<alnum:24>>")'),
    ),
    prefixed(
        "stripe-webhook-secret", "Stripe webhook signing secret", r"whsec_[A-Za-z0-9+/]{32,64}", ("whsec_",),
        entropy=3.5, tp=("STRIPE_WEBHOOK_SECRET=whsec_<<alnum:32>>",), fp=("whsec_<<lower:6>>",),
    ),
    prefixed(
        "square-access-token", "Square access token / OAuth secret",
        r"(?:EAAA[\w\-]{22,60}|sq0atp-[\w\-]{22,60}|sq0csp-[\w\-]{43})", ("EAAA", "sq0atp-", "sq0csp-"), entropy=3.5,
        tp=("SQUARE_ACCESS_TOKEN=EAAA<<b64url:60>>", "square_secret = 'sq0csp-<<b64url:43>>'"),
        fp=("sq0atp-<<lower:8>>",),
    ),
    prefixed(
        "braintree-access-token", "PayPal / Braintree access token",
        r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}", ("access_token$",),
        tp=("BRAINTREE_TOKEN=access_token$production$<<lownum:16>>$<<hex:32>>",),
        fp=("access_token$production$<merchant>$<hash>",),
    ),
    keyed(
        "paypal-client-secret", "PayPal REST client secret", r"paypal", r"E[\w\-]{79}", ("paypal",), entropy=4.0,
        tp=("PAYPAL_CLIENT_SECRET=E<<b64url:79>>",), fp=("PAYPAL_MODE=sandbox",),
    ),
    prefixed(
        "shopify-token", "Shopify access token / shared secret", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",
        ("shpat_", "shpca_", "shppa_", "shpss_"), entropy=3.0,
        tp=("SHOPIFY_ACCESS_TOKEN=shpat_<<hex:32>>",), fp=("shpat_<<hex:8>>",),
    ),
    keyed(
        "plaid-secret", "Plaid secret / access token", r"plaid",
        r"[a-f0-9]{30}|access-(?:sandbox|development|production)-[a-f0-9\-]{36}", ("plaid",),
        tp=("PLAID_SECRET=<<hex:30>>",), fp=("PLAID_ENV=sandbox",),
    ),
    prefixed(
        "razorpay-key", "Razorpay live key id", r"rzp_live_[A-Za-z0-9]{14}", ("rzp_live_",), entropy=3.0,
        tp=("RAZORPAY_KEY_ID=rzp_live_<<alnum:14>>",), fp=("rzp_live_xxxxxxxxxxxxxx",),
    ),
    keyed(
        "razorpay-secret", "Razorpay key secret", r"razorpay", r"[A-Za-z0-9]{24}", ("razorpay",), entropy=3.5,
        tp=("RAZORPAY_KEY_SECRET=<<alnum:24>>",), fp=("RAZORPAY_KEY_SECRET=",),
    ),
    prefixed(
        "flutterwave-secret-key", "Flutterwave secret / encryption key",
        r"FLW(?:SECK|PUBK)(?:_TEST)?-[a-zA-Z0-9]{32}-X|FLWSECK_TEST-?[a-hA-H0-9]{12}", ("FLWSECK", "FLWPUBK"), entropy=3.0,
        tp=("FLW_SECRET_KEY=FLWSECK-<<hex:32>>-X",), fp=("FLWSECK-xxxxxxxx-X",),
    ),
    prefixed(
        "shippo-token", "Shippo API token", r"shippo_(?:live|test)_[a-fA-F0-9]{40}", ("shippo_",),
        tp=("SHIPPO_TOKEN=shippo_live_<<hex:40>>",), fp=("shippo_live_<<hex:8>>",),
    ),
    prefixed(
        "easypost-key", "EasyPost API key", r"EZ[AT]K[A-Za-z0-9]{54}", ("EZAK", "EZTK"), entropy=3.5,
        tp=("EASYPOST_API_KEY=EZAK<<alnum:54>>",), fp=("EZAK<<alnum:10>>",),
    ),
    prefixed(
        "duffel-token", "Duffel API token", r"duffel_(?:test|live)_[\w\-=]{43}", ("duffel_",), entropy=3.5,
        tp=("DUFFEL_TOKEN=duffel_live_<<b64url:43>>",), fp=("duffel_test_<<lower:8>>",),
    ),
    keyed(
        "coinbase-token", "Coinbase API secret", r"coinbase", r"[\w\-]{64}", ("coinbase",), entropy=4.0,
        tp=("COINBASE_API_SECRET=<<b64url:64>>",), fp=("COINBASE_SANDBOX=true",),
    ),
    keyed(
        "kraken-token", "Kraken API secret", r"kraken", r"[A-Za-z0-9/=_+\-]{80,90}", ("kraken",), entropy=4.0,
        tp=("KRAKEN_PRIVATE_KEY=<<b64:88>>",), fp=("KRAKEN_URL=https://api.kraken.com",),
    ),
    keyed(
        "adyen-api-key", "Adyen API key", r"adyen", r"AQE[A-Za-z0-9+/=\-_.]{60,250}", ("adyen",), entropy=4.0,
        tp=("ADYEN_API_KEY=AQE<<b64:120>>",), fp=("ADYEN_MERCHANT=Acme",),
    ),
    keyed(
        "gocardless-token", "GoCardless access token", r"gocardless", r"live_[\w\-=]{40}", ("gocardless",),
        tp=("GOCARDLESS_TOKEN=live_<<b64url:40>>",), fp=("GOCARDLESS_ENV=sandbox",),
    ),
]
