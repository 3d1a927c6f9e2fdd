-- The history is now written once a run has ended (sql-runner/history.ts). Earlier versions inserted an entry when its
-- run began, with duration_ms -1 until it ended; those of runs the platform stopped during are never finished.
DELETE FROM query_history WHERE duration_ms = -1;
