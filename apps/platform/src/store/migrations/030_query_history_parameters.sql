-- Query history keeps the editor's text as written (its @set lines) and, here, the named parameters' values the run
-- used (issue 33 item 10): the substituted text lost the parameters when a run was reopened.
ALTER TABLE query_history ADD COLUMN parameters jsonb;
