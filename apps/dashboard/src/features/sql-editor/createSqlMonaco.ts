import type { Monaco } from './monaco'

type EditorOptions = NonNullable<Parameters<Monaco['editor']['create']>[1]>

/**
 * A Monaco editor for SQL as every editor of the product has it (the SQL editor spec's editor settings: tab size 2, font size
 * 13; PostgreSQL highlighting), with what differs per place (value, label, read-only...) on top.
 */
export function createSqlMonaco(monaco: Monaco, host: HTMLElement, options: EditorOptions) {
  const editor = monaco.editor.create(host, {
    language: 'pgsql',
    tabSize: 2,
    insertSpaces: true,
    fontSize: 13,
    minimap: { enabled: false },
    automaticLayout: true,
    scrollBeyondLastLine: false,
    wordWrap: 'on',
    fixedOverflowWidgets: true,
    renderLineHighlight: 'line',
    padding: { top: 8 },
    ...options,
  })
  // The model keeps its own indentation settings; Monaco would otherwise guess them from the text.
  editor.getModel()?.updateOptions({ tabSize: 2, insertSpaces: true })
  return editor
}
