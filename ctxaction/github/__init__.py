"""GitHub side of ctxaction: events, the ``/context`` command, REST calls, delivery, the action flow."""
