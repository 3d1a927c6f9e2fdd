/**
 * Monaco from the local bundle, never a CDN (the product works offline): the editor API, the
 * PostgreSQL language only, the suggest widget, and the editor worker bundled by Vite. Loaded on first use.
 */
import * as monaco from 'monaco-editor/editor/editor.api'
import 'monaco-editor/languages/definitions/pgsql/register'
// The suggest widget (the API alone has none): completion of the project's schemas, tables and columns.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'

self.MonacoEnvironment = { getWorker: () => new EditorWorker() }

export { monaco }
export type Monaco = typeof monaco
