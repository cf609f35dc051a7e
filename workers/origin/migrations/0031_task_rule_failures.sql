-- The cron's task rules (workers/origin/src/tasks/task-rules.ts) take claims and tasks 50 a
-- run, oldest first. One whose write fails for an unexpected reason is reported, counted here,
-- and taken after those that have not failed, so a few bad items cannot fill every run and
-- hold up the rest. Only the count changes: the status triggers (0007, 0008) watch `status`.
ALTER TABLE claim ADD COLUMN rule_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE task ADD COLUMN rule_failures INTEGER NOT NULL DEFAULT 0;
