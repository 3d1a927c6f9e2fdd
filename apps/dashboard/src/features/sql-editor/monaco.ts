/**
 * Monaco from the local bundle, never a CDN (the product works offline): the editor API, the
 * PostgreSQL language only, the editor worker bundled by Vite, and the editor features a day of SQL
 * needs (the API alone has none of them). Loaded on first use: this module is its own chunk.
 */
import * as monaco from 'monaco-editor/editor/editor.api'
import 'monaco-editor/languages/definitions/pgsql/register'
import { language as pgsqlLanguage } from 'monaco-editor/languages/definitions/pgsql/pgsql'
// The suggest widget: completion of the project's schemas, tables, views, columns, functions and queries.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController'
// Snippet insertion (a function's `name($0)` puts the cursor between its parentheses).
import 'monaco-editor/features/snippet/register'
// Find and replace (Ctrl/Cmd+F, Ctrl+H / Cmd+Alt+F).
import 'monaco-editor/features/find/register'
// Toggle line comment (Ctrl/Cmd+/) and block comment (Shift+Alt+A).
import 'monaco-editor/features/comment/register'
// Multi-cursor: Alt+click, Ctrl/Cmd+D (next occurrence), Ctrl/Cmd+Shift+L (all), Ctrl/Cmd+Alt+Up/Down.
import 'monaco-editor/features/multicursor/register'
// The command palette (F1) and its quick input.
import 'monaco-editor/features/quickCommand/register'
// Cut/copy/paste through the editor's commands (the context menu and palette entries).
import 'monaco-editor/features/clipboard/register'
// The right-click menu: Run statement, Format SQL, Cut, Copy, Paste, Command Palette.
import 'monaco-editor/features/contextmenu/register'
// Folding of long statements (by indentation), matching brackets, moving/copying lines, word moves.
import 'monaco-editor/features/folding/register'
import 'monaco-editor/features/bracketMatching/register'
import 'monaco-editor/features/linesOperations/register'
import 'monaco-editor/features/wordOperations/register'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'

self.MonacoEnvironment = { getWorker: () => new EditorWorker() }

/** Postgres's built-in function names, as the pgsql language highlights them: offered as completions. */
export const pgsqlBuiltins: readonly string[] = pgsqlLanguage.builtinFunctions

export { monaco }
export type Monaco = typeof monaco
