// The table editor's page, for the router (loaded on demand through app/areas/table-editor.ts).
export { TableEditorPage } from './TableEditorPage'
