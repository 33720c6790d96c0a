-- Version 8: several processes may share one store (issue 13). A timer is claimed by one
-- process for a lease before it fires (data.timers.Timers.claim_due); live games are found
-- by guild without a scan (their seats by user: game_seats_user, version 1).

ALTER TABLE timers ADD COLUMN claimed_by TEXT;      -- the claiming Store.origin; NULL: free
ALTER TABLE timers ADD COLUMN claimed_until REAL;   -- unix seconds the lease ends; NULL: free
CREATE INDEX timers_claimed ON timers (claimed_until) WHERE claimed_until IS NOT NULL;
CREATE INDEX games_live_guild ON games (guild_id, id) WHERE status = 'live';
