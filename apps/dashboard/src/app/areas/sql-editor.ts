// Loaded on demand: the SQL editor (Monaco, the results grid) is the heaviest page.
export { SqlEditorPage } from '../../features/sql-editor/SqlEditorPage'
export { NewQueryRedirect } from '../../features/sql-editor/NewQueryRedirect'
