-- Daily limits on the doors (workers/origin/src/limits/doors.ts): one row per door, key (a
-- user or a client address) and day in China Standard Time, raised by one UPSERT per
-- request. The cron deletes days that no longer count (retention).
CREATE TABLE limit_counter (
  door TEXT NOT NULL,
  key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
  day TEXT NOT NULL,
  count INTEGER NOT NULL CHECK (count >= 1),
  PRIMARY KEY (door, key, day)
) STRICT;
CREATE INDEX limit_counter_day ON limit_counter (day);
