-- Version 5 is reserved for issue 9's migration (assigned 0005). This placeholder only keeps
-- the numbering gap-free on the i10-i18n branch: DELETE THIS FILE when merging issue 9's
-- 0005 migration.
SELECT 1;
