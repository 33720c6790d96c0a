-- Version 9 (PostgreSQL): same as ../0009_outbox_claims.sql (SQLite): an outbox item is
-- claimed by one process for a lease before it is shown.

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;                  -- the claiming Store.origin
ALTER TABLE outbox ADD COLUMN claimed_until DOUBLE PRECISION;   -- unix seconds the lease ends
