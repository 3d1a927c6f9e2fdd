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
  removeExplainModeKey(monaco)
  return editor
}

let explainModeKeyRemoved = false

/**
 * Ctrl/Cmd+/ comments the line even while completions are open: the suggest widget binds the same key to its
 * debugging view ("Provider: undefined, score: ..."), which took the key from the comment toggle whenever the
 * list had popped up after the last keystroke. Keybindings are global to Monaco: removed once.
 */
function removeExplainModeKey(monaco: Monaco) {
  if (explainModeKeyRemoved) return
  explainModeKeyRemoved = true
  monaco.editor.addKeybindingRule({ keybinding: monaco.KeyMod.CtrlCmd | monaco.KeyCode.Slash, command: '-toggleExplainMode' })
}
