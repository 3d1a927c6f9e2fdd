// The table editor's page, for the router (loaded on demand through app/areas/table-editor.ts).
export { TableEditorPage } from './TableEditorPage'
// Shared with the Database pages: every change shows its SQL before it runs; a table's policies edited in place.
export { SqlPreviewDialog, type PendingSql } from './SqlPreviewDialog'
export { PoliciesView } from './PoliciesView'
