import { CONTENT_TEXTS } from '@stratum/contracts'
import { isEmptySql, SQL_PANEL_ROW_LIMIT } from '@stratum/sql'
import { Play, Save } from 'lucide-react'
import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react'
import { Group, Panel, Separator } from 'react-resizable-panels'
import { useNavigate } from 'react-router'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCreateSnippet } from '../../data/content/useCreateSnippet'
import { useCan, useOrgPermissions } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { modKeyLabel } from '../../lib/platform'
import { RunWarningGate, useRuns, useSqlRunner, WriteConnectionGate } from '../sql-editor'
import { flushPanelDraft, readPanelDraft, setPanelDraft } from './draft'
import { PanelEditor, type PanelEditorHandle } from './PanelEditor'
import { PanelResults } from './PanelResults'
import { SaveSnippetDialog } from './SaveSnippetDialog'
import { TemplatesMenu } from './TemplatesMenu'
import { SQL_TEMPLATES, type SqlTemplate } from './templates'
import './sql-panel.css'

export const SAVED_TOAST_DURATION_MS = 8000

/** A plain left click: the router navigates; other clicks (new tab, ...) keep the browser's way. */
function isPlainClick(event: MouseEvent) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
}

/**
 * The SQL editor side panel (the API docs and assistant spec's SQL side panel and its states): templates, Monaco, Run with the warning gate and the
 * read-only connection first (the SQL editor's runner, with its own run history), results limited
 * to 100 rows, and saving as a snippet. The SQL is kept as a draft per project.
 */
export function SqlPanel({ projectRef }: { projectRef: string }) {
  const { project } = useCurrentProject()
  const orgSlug = project?.organization_slug
  const permissionsLoaded = useOrgPermissions(orgSlug) !== undefined
  const canSave = useCan(orgSlug, 'user_content.create')
  const canWrite = useCan(orgSlug, 'sql.write')
  const navigate = useNavigate()
  const toast = useToast()
  const createSnippet = useCreateSnippet()

  const handle = useRef<PanelEditorHandle | null>(null)
  const [initialSql, setInitialSql] = useState(() => readPanelDraft(projectRef))
  const [sql, setSql] = useState(initialSql)
  const empty = useMemo(() => isEmptySql(sql), [sql])
  const [replacing, setReplacing] = useState<SqlTemplate | null>(null)
  const [saveOpen, setSaveOpen] = useState(false)
  const [focusRequest, setFocusRequest] = useState(0)

  const runKey = `${projectRef}/side-panel`
  const runs = useRuns(runKey)
  const runner = useSqlRunner({ projectRef, runKey, rowLimit: SQL_PANEL_ROW_LIMIT, canWrite })

  useEffect(() => () => flushPanelDraft(projectRef), [projectRef])

  // Back to the editor after a template: once the closing menu or dialog has given focus back
  // to its opener (Radix does that in a timeout of its own, queued before this one).
  useEffect(() => {
    if (focusRequest === 0) return
    const timer = window.setTimeout(() => handle.current?.focus(), 0)
    return () => window.clearTimeout(timer)
  }, [focusRequest])

  const change = (next: string) => {
    setSql(next)
    setPanelDraft(projectRef, next)
  }

  const run = (text: string) => runner.run({ sql: text, offset: 0 })

  const applyTemplate = (template: SqlTemplate) => {
    setReplacing(null)
    setFocusRequest((n) => n + 1)
    if (handle.current) {
      handle.current.replaceAll(template.sql)
    } else {
      // Monaco is still loading: it starts with the template.
      setInitialSql(template.sql)
      change(template.sql)
    }
  }

  // Text the user wrote is not thrown away without asking; an untouched template is.
  const pickTemplate = (template: SqlTemplate) => {
    if (empty || SQL_TEMPLATES.some((t) => t.sql === sql)) applyTemplate(template)
    else setReplacing(template)
  }

  const save = (name: string) => {
    createSnippet.mutate(
      { ref: projectRef, id: crypto.randomUUID(), sql, name },
      {
        onSuccess: (item) => {
          setSaveOpen(false)
          const path = `/project/${projectRef}/sql/${item.id}`
          toast.show({
            tone: 'success',
            duration: SAVED_TOAST_DURATION_MS,
            title: (
              <>
                Saved snippet!{' '}
                <a
                  href={path}
                  className="sql-panel-toast-link"
                  onClick={(event) => {
                    if (!isPlainClick(event)) return
                    event.preventDefault()
                    void navigate(path)
                  }}
                >
                  View it here
                </a>
                .
              </>
            ),
          })
        },
        onError: (error) => toast.error(`Failed to create new query: ${errorMessage(error)}`),
      },
    )
  }

  const saveBlocked = permissionsLoaded && !canSave

  return (
    <div className="sql-panel">
      <div className="sql-panel-toolbar">
        <TemplatesMenu onPick={pickTemplate} />
        <span className="spacer" />
        <Button
          size="sm"
          icon={<Save size={14} aria-hidden="true" />}
          disabled={!permissionsLoaded || saveBlocked || empty}
          disabledReason={saveBlocked ? CONTENT_TEXTS.cannotSave : undefined}
          onClick={() => setSaveOpen(true)}
          title={saveBlocked ? undefined : 'Save the SQL as a snippet in the SQL editor'}
        >
          Save as snippet
        </Button>
        <Button
          variant="primary"
          size="sm"
          icon={<Play size={14} aria-hidden="true" />}
          loading={runner.running !== null}
          disabled={empty}
          onClick={() => run(handle.current?.getRunnable() ?? sql)}
          title={`Run (${modKeyLabel}+Enter)`}
        >
          Run
        </Button>
      </div>
      <Group orientation="vertical" className="sql-panel-split" id="sql-panel-split">
        <Panel id="sql-panel-editor" defaultSize="45%" minSize="15%">
          <PanelEditor projectRef={projectRef} initialValue={initialSql} onChange={change} onRun={run} handleRef={handle} />
        </Panel>
        <Separator className="resize-handle sql-panel-resize" aria-label="Resize results" />
        <Panel id="sql-panel-results" defaultSize="55%" minSize="15%">
          <section className="sql-panel-results-area" aria-label="Results">
            {/* The warning-confirm state is the panel's own, in place of its results (never a modal over the page). */}
            {runner.gate ? (
              <RunWarningGate warning={runner.gate.warning} destructive={runner.gate.destructive} onRun={runner.confirmGate} onCancel={runner.cancelGate} />
            ) : runner.writePrompt ? (
              <WriteConnectionGate message={runner.writePrompt.message} onConfirm={runner.confirmWrite} onCancel={runner.declineWrite} />
            ) : (
              <PanelResults projectRef={projectRef} latest={runs[0]} running={runner.running} cancelling={runner.cancelling} onCancel={runner.cancel} />
            )}
          </section>
        </Panel>
      </Group>

      <Dialog
        open={replacing !== null}
        onOpenChange={(open) => !open && setReplacing(null)}
        size="sm"
        title="Replace your SQL?"
        description={
          replacing ? `The template “${replacing.title}” replaces the SQL in the editor. ${modKeyLabel}+Z in the editor brings your text back.` : undefined
        }
        footer={
          <>
            <Button onClick={() => setReplacing(null)}>Cancel</Button>
            <Button variant="primary" onClick={() => replacing && applyTemplate(replacing)} autoFocus>
              Replace
            </Button>
          </>
        }
      />
      {saveOpen ? <SaveSnippetDialog saving={createSnippet.isPending} onSave={save} onClose={() => setSaveOpen(false)} /> : null}
    </div>
  )
}
