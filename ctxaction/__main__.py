"""``python -m ctxaction`` runs the CLI."""

from ctxaction.cli import main

raise SystemExit(main())
