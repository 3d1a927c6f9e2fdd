// Loaded on demand: the table editor.
export { TableEditorPage } from '../../features/table-editor/TableEditorPage'
