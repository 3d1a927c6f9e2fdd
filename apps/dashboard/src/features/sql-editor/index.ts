// What the SQL side panel (features/sql-panel) shares with the editor: the Monaco hook (Monaco itself loads on demand,
// loadMonaco.ts), the run path with its dialogs and the per-tab run history. The editor page is a route of its own
// (app/areas/sql-editor): it is not exported here, so importing this entry does not pull the page in.
export { ElapsedTime } from './ElapsedTime'
export { useRuns, type RunRecord } from './results'
export { RunWarningDialog, RunWarningGate, WriteConnectionDialog, WriteConnectionGate } from './RunDialogs'
export { useSqlMonaco } from './useSqlMonaco'
export { useSqlRunner, type RunningQuery } from './useSqlRunner'
