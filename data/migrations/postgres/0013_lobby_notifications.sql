-- Version 13 (PostgreSQL): every change of a lobby (opened, seats or settings changed, closed)
-- is announced on the channel 'hats_lobby' when its transaction commits (LISTEN,
-- data.pg_watch.PgWatcher), so other processes can tell the Activity's viewers of that
-- channel. Payload: "<channel_id> <origin>" (<origin>: the writer's application_name, i.e.
-- data.store.Store.origin). Identical payloads of one transaction are sent once.

CREATE FUNCTION hats_notify_lobby() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    channel BIGINT;
BEGIN
    IF TG_OP = 'DELETE' THEN
        channel := OLD.channel_id;
    ELSE
        channel := NEW.channel_id;
    END IF;
    PERFORM pg_notify('hats_lobby', channel::text || ' ' || current_setting('application_name'));
    RETURN NULL;
END;
$$;
CREATE TRIGGER lobbies_notify AFTER INSERT OR UPDATE OR DELETE ON lobbies
    FOR EACH ROW EXECUTE FUNCTION hats_notify_lobby();
