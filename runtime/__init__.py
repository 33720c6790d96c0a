"""How the process itself runs: the garbage collector's policy for a long-lived server.

Ground floor (``tests/test_layers.py``): the standard library only, nothing of the project.
``bot.py`` installs it at start-up; ``scripts/bench_web.py`` does the same, so the bench
measures the bot's own tail.

- :mod:`runtime.gc_freeze`: after each full collection, freeze what survived it (and thaw it
  all now and then, so that cycles which died meanwhile are still freed).
"""
