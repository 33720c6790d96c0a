-- Version 8 (PostgreSQL): several processes share the store (issue 13).
-- Same claim columns and indexes as ../0008_shared_store.sql (SQLite), plus notifications:
-- every change of a game is announced on the channel 'hats_game' (LISTEN, data.pg.PgWatcher)
-- when its transaction commits, so other processes can drop their cached copy.
-- Payloads: "<game_id> <seq> <origin>" for a new step, "<game_id> - <origin>" for a change of
-- the game row, its seats or its messages; <origin> is the writer's application_name
-- (data.store.Store.origin). Identical payloads of one transaction are sent once.

ALTER TABLE timers ADD COLUMN claimed_by TEXT;                  -- the claiming Store.origin
ALTER TABLE timers ADD COLUMN claimed_until DOUBLE PRECISION;   -- unix seconds the lease ends
CREATE INDEX timers_claimed ON timers (claimed_until) WHERE claimed_until IS NOT NULL;
CREATE INDEX games_live_guild ON games (guild_id, id) WHERE status = 'live';

CREATE FUNCTION hats_notify_step() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('hats_game',
        NEW.game_id::text || ' ' || NEW.seq::text || ' ' || current_setting('application_name'));
    RETURN NULL;
END;
$$;
CREATE TRIGGER steps_notify AFTER INSERT ON steps
    FOR EACH ROW EXECUTE FUNCTION hats_notify_step();

-- games: the row's id; game_seats, game_messages: the game's id in game_id.
CREATE FUNCTION hats_notify_game() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    game BIGINT;
BEGIN
    IF TG_TABLE_NAME = 'games' THEN
        game := NEW.id;
    ELSE
        game := NEW.game_id;
    END IF;
    PERFORM pg_notify('hats_game', game::text || ' - ' || current_setting('application_name'));
    RETURN NULL;
END;
$$;
CREATE TRIGGER games_notify AFTER UPDATE ON games
    FOR EACH ROW EXECUTE FUNCTION hats_notify_game();
CREATE TRIGGER game_seats_notify AFTER UPDATE ON game_seats
    FOR EACH ROW EXECUTE FUNCTION hats_notify_game();
CREATE TRIGGER game_messages_notify AFTER INSERT OR UPDATE ON game_messages
    FOR EACH ROW EXECUTE FUNCTION hats_notify_game();
