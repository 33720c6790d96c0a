-- Version 10: two more per-server settings (``/hats settings pictures`` and
-- ``/hats settings timer``). pictures NULL or 1: pictures on; 0: the compact text layout.
-- turn_timer NULL: the bot's default turn timer for new lobbies; 0: no timer; else seconds.

ALTER TABLE guild_settings ADD COLUMN pictures INTEGER;
ALTER TABLE guild_settings ADD COLUMN turn_timer REAL;
