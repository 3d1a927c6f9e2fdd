import { DisplayQueryArgs } from '@stratum/contracts'
import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCreateSnippet } from '../../data/content/useCreateSnippet'
import { QueryResultWidget } from '../query-widget'
import { QUERY_DRAG_TYPE, type DraggedQuery } from '../../lib/dragged-query'

interface QueryBlockProps {
  projectRef: string
  toolCallId: string
  input: unknown
  /** The member may save snippets (create on user_content of type sql): only then can the block be dragged onto a report. */
  canSave: boolean
  /** Shown from a stored chat: not run again on its own. */
  fromHistory: boolean
  onRendered: () => void
}

/**
 * display_query: the query result widget of the SQL editor (warning gate, write escalation, table or
 * chart), run at once only when the model asked for it; the gate still stops anything but a plain select.
 */
export function QueryBlock({ projectRef, toolCallId, input, canSave, fromHistory, onRendered }: QueryBlockProps) {
  const navigate = useNavigate()
  const toast = useToast()
  const createSnippet = useCreateSnippet()
  const creating = useRef(false)
  const args = DisplayQueryArgs.safeParse(input)

  useEffect(() => {
    onRendered()
    // Once, when the block first shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  if (!args.success) return <p className="assistant-note">The assistant sent a query block that could not be read.</p>
  const { label, sql, view, xAxis, yAxis, runQuery } = args.data
  const name = label.trim() || 'Query'

  // The editor opens it as a new snippet of the member's own (or, without the permission, tells why not).
  // One snippet per click: the button stays enabled while the snippet is created, and a double click made two.
  const editInEditor = () => {
    if (creating.current) return
    creating.current = true
    createSnippet.mutate(
      { ref: projectRef, id: crypto.randomUUID(), sql, name },
      {
        onSuccess: (item) => void navigate(`/project/${projectRef}/sql/${item.id}`),
        onError: (error) => toast.error(`Failed to create new query: ${errorMessage(error)}`),
        onSettled: () => {
          creating.current = false
        },
      },
    )
  }

  const dragged: DraggedQuery = { label: name, sql }
  return (
    <div
      className="assistant-query-block"
      draggable={canSave}
      title={canSave ? 'Drag onto a report to pin this query' : undefined}
      onDragStart={(event) => {
        if (!canSave) return
        event.dataTransfer.setData(QUERY_DRAG_TYPE, JSON.stringify(dragged))
        event.dataTransfer.effectAllowed = 'copy'
      }}
    >
      <QueryResultWidget
        projectRef={projectRef}
        snippet={{ id: toolCallId, name, content: { schema_version: '1.0', sql, chart: { view: view ?? 'table', xKey: xAxis, yKey: yAxis } } }}
        autoRun={runQuery === true && !fromHistory}
        onEditInEditor={editInEditor}
      />
    </div>
  )
}
