-- Version 12 (PostgreSQL): a tournament's announcements (issue 30). One row per announcement
-- owed once (the tables of a round, the pause after it, the final standings, the call-off):
-- claimed for a lease by the process that posts it, then marked posted. A restart (or a
-- second process) sees what is already posted and posts nothing twice; a claim whose process
-- died runs out and the announcement is posted by the next look.

CREATE TABLE tournament_notices (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,   -- round | pause | final | cancelled
    round         INTEGER NOT NULL,   -- the round it is about (0 for final and cancelled)
    claimed_by    TEXT,
    claimed_until DOUBLE PRECISION,
    message_id    BIGINT,             -- the posted message, if one was posted
    posted_at     DOUBLE PRECISION,   -- NULL: not posted yet
    PRIMARY KEY (tournament_id, kind, round)
);
