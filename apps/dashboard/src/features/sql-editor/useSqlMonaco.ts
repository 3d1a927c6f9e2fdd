import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { useSnippets } from '../../data/content/useSnippets'
import { useSqlCatalog } from '../../data/sql/useSqlCatalog'
import { useTheme } from '../../lib/theme'
import { registerSqlCompletion, type CompletionSources } from './completion'
import { createSqlMonaco } from './createSqlMonaco'
import { loadMonaco } from './loadMonaco'
import type { Monaco } from './monaco'

export type SqlMonacoEditor = ReturnType<Monaco['editor']['create']>
type EditorOptions = NonNullable<Parameters<Monaco['editor']['create']>[1]>

interface UseSqlMonacoOptions {
  initialValue: string
  onChange: (sql: string) => void
  /** The project whose schemas, tables, views, columns, functions and saved queries are offered as completions. */
  projectRef?: string
  /** What differs per place: its accessible label, read-only, gutter... */
  options: EditorOptions
  /** Per-place wiring (keys, handles) once the editor exists; returns what to undo on unmount. */
  setup?: (editor: SqlMonacoEditor, monaco: Monaco) => (() => void) | void
}

/**
 * The life of a SQL editor in a host element: Monaco loaded lazily from the local bundle, created
 * once per mount, edits reported, the project's completion, the theme followed, all disposed on
 * unmount. `failed` holds why it could not load.
 */
export function useSqlMonaco(host: RefObject<HTMLDivElement | null>, { initialValue, onChange, projectRef, options, setup }: UseSqlMonacoOptions) {
  const [loaded, setLoaded] = useState<{ editor: SqlMonacoEditor; monaco: Monaco } | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const { resolved } = useTheme()
  const catalog = useSqlCatalog(projectRef).data
  const snippets = useSnippets(projectRef ?? '').data
  const sources = useMemo<Omit<CompletionSources, 'builtins'>>(
    () => ({ catalog, snippets: snippets?.map((item) => ({ name: item.name, sql: item.content?.sql ?? '' })) }),
    [catalog, snippets],
  )
  // The editor lives across renders; it reads the latest callbacks through this.
  const latest = useRef({ onChange, sources, initialValue, options, setup })
  useLayoutEffect(() => {
    latest.current = { onChange, sources, initialValue, options, setup }
  })

  useEffect(() => {
    let disposed = false
    const cleanups: Array<() => void> = []
    loadMonaco().then(
      ({ monaco, pgsqlBuiltins }) => {
        if (disposed || !host.current) return
        const editor = createSqlMonaco(monaco, host.current, { value: latest.current.initialValue, ...latest.current.options })
        cleanups.push(() => editor.dispose())
        editor.onDidChangeModelContent(() => latest.current.onChange(editor.getValue()))
        const model = editor.getModel()
        if (model) {
          const completion = registerSqlCompletion(monaco, model, () => ({ ...latest.current.sources, builtins: pgsqlBuiltins }))
          cleanups.push(() => completion.dispose())
        }
        const undo = latest.current.setup?.(editor, monaco)
        if (undo) cleanups.push(undo)
        setLoaded({ editor, monaco })
      },
      (error: unknown) => setFailed(error instanceof Error ? error.message : String(error)),
    )
    return () => {
      disposed = true
      cleanups.reverse().forEach((cleanup) => cleanup())
    }
    // Created once per mount: a page that needs a fresh editor remounts it.
  }, [host])

  useEffect(() => {
    loaded?.monaco.editor.setTheme(resolved === 'dark' ? 'vs-dark' : 'vs')
  }, [loaded, resolved])

  return { editor: loaded?.editor ?? null, monaco: loaded?.monaco ?? null, failed }
}
