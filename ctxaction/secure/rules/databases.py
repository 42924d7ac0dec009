"""Database and broker credentials: connection URLs with passwords and connection strings."""

from __future__ import annotations

import re

from ctxaction.secure.placeholders import word_list
from ctxaction.secure.rule import Context, Rule

# URL schemes whose ``user:password@`` part is a credential. The regex takes any scheme (a short
# pattern compiles fast, and compiling is most of a hook run's regex cost); the check keeps these,
# driver-qualified ones (``postgresql+psycopg2``, ``mongodb+srv``) and ``jdbc:`` ones.
_SCHEME_NAMES = """postgres postgresql mysql mariadb mssql sqlserver oracle mongodb redis rediss amqp
    amqps rabbitmq
    kafka nats clickhouse cockroachdb couchdb neo4j bolt cassandra elasticsearch memcached ldap ldaps ftp
    ftps sftp smtp smtps imap imaps http https ws wss ssh git svn s3 snowflake db2 influxdb questdb presto
    trino hive cloudinary"""
_SCHEMES = frozenset(word_list(_SCHEME_NAMES))
_STAND_INS = frozenset({"pass", "pw", "pwd", "password"})


def _url_password_ok(secret: str, ctx: Context) -> bool:
    """A known scheme, and a password that is not a template or documentation (``user:pass@``)."""
    from ctxaction.secure.placeholders import PLACEHOLDER_VALUES, is_placeholder

    scheme = ctx.label.lower()
    if scheme not in _SCHEMES and "+" not in scheme and not scheme.startswith("jdbc:"):
        return False
    from urllib.parse import unquote

    words = [w for w in re.split(r"[\s_\-#%&+.,:;]+", unquote(secret).lower()) if w]
    if all(w in _STAND_INS or w in PLACEHOLDER_VALUES for w in words):
        return False  # ``user:pass``, ``user:pass%20pass``
    return not is_placeholder(secret)


RULES: list[Rule] = [
    Rule(
        "database-url-password", "Connection URL with an embedded password",
        r"\b(?P<label>[A-Za-z][A-Za-z0-9]{1,20}(?:\+[A-Za-z0-9]{1,20}|:[A-Za-z0-9]{2,20})?)://"
        r"[^\s:/@'\"`<>]{0,100}:(?P<secret>[^\s@/'\"`<>]{3,200})@[\w.\-\[\]]{1,253}",
        ("://",), check=_url_password_ok, min_len=3,
        tp=('DATABASE_URL="postgres://app:<<pw:14>>@db.internal:5432/app"',
            "MONGO_URI=mongodb+srv://svc:<<alnum:16>>@cluster0.ab1cd.mongodb.net/prod",
            "redis_url: redis://:<<alnum:24>>@cache.internal:6379/0",
            "broker = 'amqp://worker:<<pw:12>>@rabbit:5672//'",
            "git clone https://deploy:<<alnum:20>>@git.internal.net/team/app.git",
            'engine = create_engine("postgresql+psycopg2://app:<<pw:14>>@db.internal/app")',
            "jdbc:mysql://svc:<<alnum:16>>@db.internal:3306/shop"),
        fp=('DATABASE_URL="postgres://user:password@localhost:5432/app"',
            "postgres://${DB_USER}:${DB_PASSWORD}@${DB_HOST}/app",
            "mysql://root:<password>@127.0.0.1/db", "redis://localhost:6379/0",
            "https://user:pass@example.com/path", "postgresql://{user}:{password}@{host}/{db}",
            "foo://user:<<pw:14>>@host/x", "http://user:pass%20pass@complex.url.com/"),
    ),
    Rule(
        "connection-string-password", "ADO.NET / ODBC / JDBC connection string with a password",
        r"(?i)(?:^|[;'\"\s?&])(?:password|pwd)[ \t]{0,3}=[ \t]{0,3}(?P<secret>[^;'\"\s&<>]{4,128})"
        r"(?=[;'\"\s&<>]|$)",
        ("password", "pwd"), min_len=4,
        check=lambda s, ctx: any(k in ctx.line.lower() for k in ("server=", "data source=", "host=", "uid=",
                                                                   "user id=", "database=", "jdbc:", "dsn=")),
        tp=('"Server=tcp:sql.acme.net,1433;Database=app;User ID=svc;Password=<<pw:16>>;Encrypt=true;"',
            "jdbc:sqlserver://db:1433;databaseName=app;user=svc;password=<<alnum:14>>",),
        fp=('"Server=localhost;Database=app;User Id=sa;Password=${SA_PASSWORD};"',
            "Server=.;Database=app;Trusted_Connection=True;"),
    ),
]
