"""The Activity's web layer: the HTTP/WebSocket server the browser app talks to (issue 28).

Beside ``cogs`` (over ``service``; nothing below learns about the web): the bot's entry point
opens one :class:`WebServer` (``HATS_WEB_PORT``) and hands it the game service, the catalogs
and a few callables. It speaks ``hats-activity/1`` (docs/ACTIVITY_PROTOCOL.md): sign-in as
Discord's Activities do it (``web.auth``), one WebSocket per client that gets its own view
after every committed step (``web.hub``, ``web.views``), and requests that go through the
same service calls and checks as the buttons and slash commands (``web.socket``,
``service.requests``, ``service.lobby_requests``). ``web.local`` runs a game without Discord
(``python bot.py --local``). It imports no discord.py; the words come from the bot's own
catalogs and renderers (``texts.i18n``, ``texts``, ``cogs.replies``).
"""

from web.server import LOCAL_CHANNEL, LOCAL_GUILD, WebConfig, WebServer

__all__ = ["LOCAL_CHANNEL", "LOCAL_GUILD", "WebConfig", "WebServer"]
