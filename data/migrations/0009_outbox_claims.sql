-- Version 9: an outbox item is claimed by one process for a lease before it is shown
-- (data.outbox.Outbox.claim), so two processes never post the same table or end screen.

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;      -- the claiming Store.origin; NULL: free
ALTER TABLE outbox ADD COLUMN claimed_until REAL;   -- unix seconds the lease ends; NULL: free
