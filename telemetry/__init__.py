"""What a host watches: Prometheus metrics and JSON log lines (issue 21).

The package sits on the ground floor of the house (``tests/test_layers.py``): it imports
nothing of the project and no Discord library, only the standard library and
``prometheus_client``. Every layer counts what it sees by importing the metric it moves,
the way every module already takes its logger from :mod:`logging`: the store times its
statements and counts its faults, the service counts steps, finished games and fired
deadlines, the cogs count interactions and Discord requests. The other way round (hooks in
the store and the service, wired to the metrics by ``bot.py``) would thread a callback
through every constructor and still need a place for the metric definitions; a process has
one set of metrics, as it has one logging tree, so module-level definitions are the
library's own idiom and the cleaner choice.

What needs Discord or aiohttp stays above: the HTTP endpoints ``/metrics``, ``/healthz`` and
``/readyz`` are served from the event loop by ``cogs.monitoring`` (aiohttp, which sits with
discord.py on the ``cogs`` floor), which also reads the bot's readiness and Discord's
requests.

- :mod:`telemetry.metrics`: the metric definitions (names and labels of issue 21), the
  garbage collector's pause histogram, the small label helpers;
- :mod:`telemetry.logs`: the JSON log formatter and the game/guild ids of the current task.
"""
