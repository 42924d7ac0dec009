# ruff: noqa: E501  (a rule table: one regex or example per line reads better than wrapped strings)
"""Chat, mail and SMS: Slack, Discord, Telegram, Teams, SendGrid, Mailgun, Twilio and peers."""

from __future__ import annotations

from ctxaction.secure.rule import Rule, keyed, prefixed

RULES: list[Rule] = [
    prefixed(
        "slack-bot-token", "Slack bot / user / app / config token",
        r"xox[baprse]-(?:\d{8,14}-){1,3}[A-Za-z0-9]{20,64}|xox[pe]\.?-?[\w\-]{0,2}[\w\-]{40,200}"
        r"|xoxb-\d{8,14}-[A-Za-z0-9\-]{18,80}|xox[os]-\d{1,14}-\d{1,14}-\d{1,14}-[a-fA-F\d]{8,64}|xox[ar]-(?:\d-)?[A-Za-z0-9]{8,48}"
        r"|xapp-\d-[A-Z0-9]{4,14}-\d{4,14}-[A-Za-z0-9]{6,64}"
        r"|xapp-\d-[A-Z0-9]{8,14}-\d{8,14}-[a-f0-9]{64}",
        ("xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe", "xapp-"), entropy=3.0,
        tp=("SLACK_BOT_TOKEN=xoxb-<<digits:12>>-<<digits:13>>-<<alnum:24>>",
            "slack_app_token: xapp-1-A<<upnum:10>>-<<digits:13>>-<<hex:64>>",
            '[notify.c] #define SLACK_TOKEN "xoxb-<<digits:12>>-<<digits:13>>-"\n                    "<<alnum:24>>"'),
        fp=("xoxb-your-token-here", "xoxb-000000000000-0000000000000-xxxxxxxxxxxxxxxxxxxxxxxx"),
    ),
    prefixed(
        "slack-webhook-url", "Slack incoming webhook URL",
        r"https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}"
        r"|https?://hooks\.slack\.com/services/T[A-Z0-9]{8,12}/B[A-Z0-9]{8,12}/[A-Za-z0-9]{24}",
        ("hooks.slack.com",),
        tp=("SLACK_WEBHOOK=https://hooks.slack.com/services/T<<upnum:10>>/B<<upnum:10>>/<<alnum:24>>",),
        fp=("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",),
        anchored=False,
    ),
    prefixed(
        "discord-webhook-url", "Discord webhook URL",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{17,20}/[\w\-]{60,68}",
        ("discord",), tp=("DISCORD_WEBHOOK=https://discord.com/api/webhooks/<<digits:18>>/<<b64url:68>>",),
        fp=("https://discord.com/api/webhooks/<id>/<token>",),
        anchored=False,
    ),
    prefixed(
        "discord-bot-token", "Discord bot token", r"[MNO][A-Za-z\d]{23,25}\.[\w\-]{6}\.[\w\-]{27,38}",
        # No prefix of its own: it must share a line with a word a bot's token sits next to.
        ("discord", "token", "bot", "login(", ".run("), entropy=4.0,
        tp=("DISCORD_BOT_TOKEN=M<<alnum:25>>.<<b64url:6>>.<<b64url:38>>",), fp=("MTxxxxxxxxx.xxxxxx.xxxxxxxx",),
        anchored=False,
    ),
    keyed(
        "discord-client-secret", "Discord client secret", r"discord", r"[\w\-]{32}", ("discord",), entropy=3.5,
        tp=("DISCORD_CLIENT_SECRET=<<b64url:32>>",), fp=("DISCORD_GUILD=<<digits:18>>",),
    ),
    prefixed(
        "telegram-bot-token", "Telegram bot API token", r"\d{8,10}:AA[\w\-]{33}", (":AA",), entropy=3.5,
        tp=("TELEGRAM_BOT_TOKEN=<<digits:10>>:AA<<b64url:33>>",), fp=("123456789:AAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",),
        anchored=False,
    ),
    prefixed(
        "teams-webhook-url", "Microsoft Teams incoming webhook URL",
        r"https://[\w\-]{1,60}\.webhook\.office\.com/webhookb2/[a-f0-9\-]{36}@[a-f0-9\-]{36}/IncomingWebhook/"
        r"[a-f0-9]{32}/[a-f0-9\-]{36}(?:/[\w\-]{40,50})?",
        ("webhook.office.com",),
        tp=("TEAMS_WEBHOOK=https://acme.webhook.office.com/webhookb2/<<uuid>>@<<uuid>>/IncomingWebhook/<<hex:32>>/<<uuid>>",),
        fp=("https://acme.webhook.office.com/webhookb2/<id>",),
        anchored=False,
    ),
    prefixed(
        "sendgrid-api-key", "SendGrid API key", r"SG\.[\w\-]{22}\.[\w\-]{43}|SG\.[\w\-=.]{66}", ("SG.",), entropy=4.0,
        tp=("SENDGRID_API_KEY=SG.<<b64url:22>>.<<b64url:43>>",), fp=("SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",),
    ),
    prefixed(
        "mailgun-api-key", "Mailgun private API key", r"key-[a-f0-9]{32}",
        ("key-",), entropy=3.0,
        tp=("MAILGUN_API_KEY=key-<<hex:32>>",),
        fp=("key-<<hex:8>>",),
    ),
    keyed(
        "mailgun-signing-key", "Mailgun webhook signing key", r"mailgun", r"[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}",
        ("mailgun",), tp=("MAILGUN_SIGNING_KEY=<<hex:32>>-<<hex:8>>-<<hex:8>>",), fp=("MAILGUN_DOMAIN=mg.acme.io",),
    ),
    prefixed(
        "mailchimp-api-key", "Mailchimp API key", r"[a-f0-9]{32}-us\d{1,2}", ("-us",), entropy=3.0,
        tp=("MAILCHIMP_API_KEY=<<hex:32>>-us14",), fp=("00000000000000000000000000000000-us1",),
        anchored=False,
    ),
    prefixed(
        "brevo-api-key", "Brevo (Sendinblue) API key", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}", ("xkeysib-",),
        tp=("BREVO_API_KEY=xkeysib-<<hex:64>>-<<alnum:16>>",), fp=("xkeysib-<<hex:8>>",),
    ),
    prefixed(
        "postmark-token", "Postmark server token", r"(?i:postmark)[\w\-]{0,20}['\"]?\s{0,3}[=:]\s{0,3}['\"]?"
        r"[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}", ("postmark",),
        tp=("POSTMARK_SERVER_TOKEN=<<uuid>>",), fp=("POSTMARK_FROM=ops@acme.io",),
    ),
    prefixed(
        "twilio-api-key", "Twilio API key SID", r"SK[a-fA-F0-9]{32}", ("SK",), entropy=3.0,
        tp=("TWILIO_API_KEY=SK<<hex:32>>",), fp=("SK<<hex:8>>",),
    ),
    keyed(
        "twilio-auth-token", "Twilio auth token / API secret", r"twilio|twlo", r"[a-f0-9]{32}|[A-Za-z0-9]{32}",
        ("twilio", "twlo"), tp=("TWILIO_AUTH_TOKEN=<<hex:32>>",), fp=("TWILIO_ACCOUNT_SID=AC<<hex:8>>",),
    ),
    Rule(
        "twilio-auth-pair", "Twilio auth token next to its account SID (Client(sid, token))",
        r"AC[a-f0-9]{32}['\"]?[ \t]{0,4},[ \t]{0,4}['\"](?P<secret>[a-f0-9]{32})['\"]", ("AC",),
        tp=('client = Client("AC<<hex:32>>", "<<hex:32>>")',), fp=('client = Client("AC<<hex:32>>", auth_token)',),
    ),
    keyed(
        "vonage-api-secret", "Vonage / Nexmo API secret", r"vonage|nexmo", r"[A-Za-z0-9]{16}", ("vonage", "nexmo"),
        entropy=3.2, tp=("NEXMO_API_SECRET=<<alnum:16>>",), fp=("NEXMO_FROM=Acme",),
    ),
    keyed(
        "messagebird-token", "MessageBird API token", r"messagebird|message[_\-]bird|message-bird",
        r"[A-Za-z0-9]{25}", ("messagebird", "message_bird", "message-bird"), entropy=3.5,
        tp=("MESSAGEBIRD_API_KEY=<<alnum:25>>",), fp=("MESSAGEBIRD_ORIGINATOR=Acme",),
    ),
    keyed(
        "mattermost-token", "Mattermost access token", r"mattermost", r"[a-z0-9]{26}", ("mattermost",),
        entropy=3.5, tp=("MATTERMOST_TOKEN=<<lownum:26>>",), fp=("MATTERMOST_URL=https://chat.acme.io",),
    ),
    keyed(
        "gitter-token", "Gitter access token", r"gitter", r"[a-z0-9_\-]{40}", ("gitter",), entropy=3.5,
        tp=("GITTER_TOKEN=<<hex:40>>",), fp=("GITTER_ROOM=acme/dev",),
    ),
    keyed(
        "sendbird-token", "Sendbird access token", r"sendbird", r"[a-f0-9]{40}", ("sendbird",),
        tp=("SENDBIRD_API_TOKEN=<<hex:40>>",), fp=("SENDBIRD_APP_ID=<<uuid>>_not",),
    ),
]
