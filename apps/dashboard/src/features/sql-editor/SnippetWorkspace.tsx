import { CONTENT_TEXTS, SQL_DEFAULT_TIMEOUT_MS, type ContentItem } from '@stratum/contracts'
import { NO_ROW_LIMIT, ROW_LIMIT_OPTIONS } from '@stratum/sql'
import { Activity, ChevronDown, Copy, History, ListTree, PanelLeft, Play, Sparkles, WandSparkles } from 'lucide-react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { Group, Panel, Separator } from 'react-resizable-panels'
import { useQueryClient } from '@tanstack/react-query'
import { Alert } from '../../components/ui/Alert'
import { Button, IconButton } from '../../components/ui/Button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/DropdownMenu'
import { Select } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { contentKeys } from '../../data/content/keys'
import { createSnippet, storeCreatedSnippet } from '../../data/content/useCreateSnippet'
import { saveSnippet, storeSnippet } from '../../data/content/useSaveSnippet'
import { runQuery } from '../../data/sql/runQuery'
import { usePreload } from '../../lib/lazyComponent'
import { useNarrowerThan } from '../../lib/useNarrowerThan'
import { useAutoTitle } from './ai/useAutoTitle'
import { explainProblem, explainSql, parsePlan } from './explain'
import { ExplainView, type ExplainState } from './ExplainView'
import { ONGOING_QUERIES_PARAM, QUERY_HISTORY_PARAM } from './dialogs'
import { getDraft, restoreDraft, saveDraftNow, setDraft, useDraft, type DraftSaver, type SaveState } from './drafts'
import { useRuns } from './results'
import { ResultsPanel } from './ResultsPanel'
import { ResultsGrid } from '../results-grid'
import { RunWarningDialog, WriteConnectionDialog } from './RunDialogs'
import { SchemaBrowser } from './SchemaBrowser'
import { SqlEditor, type EditorHandle, type ErrorMarker } from './SqlEditor'
import { useSqlRunner, type Runnable } from './useSqlRunner'
import { useLatestSearchParams } from '../../lib/useLatestSearchParams'

const ROW_LIMIT_KEY = 'stratum.sql-editor.row-limit'
const DEFAULT_ROW_LIMIT = 100

function readRowLimit(): number {
  const saved = Number(window.localStorage.getItem(ROW_LIMIT_KEY))
  return (ROW_LIMIT_OPTIONS as readonly number[]).includes(saved) ? saved : DEFAULT_ROW_LIMIT
}

const TIMEOUT_KEY = 'stratum.sql-editor.statement-timeout'
/** The per-run statement timeouts offered (ms): the server's default (1 min) and the bounds it accepts (at most 5 min). */
export const STATEMENT_TIMEOUT_OPTIONS = [10_000, 30_000, SQL_DEFAULT_TIMEOUT_MS, 300_000] as const

function readTimeout(): number {
  const saved = Number(window.localStorage.getItem(TIMEOUT_KEY))
  return (STATEMENT_TIMEOUT_OPTIONS as readonly number[]).includes(saved) ? saved : SQL_DEFAULT_TIMEOUT_MS
}

const timeoutLabel = (ms: number) => `Timeout ${ms < 60_000 ? `${ms / 1000} s` : `${ms / 60_000} min`}`

const BROWSER_KEY = 'stratum.sql-editor.schema-browser'
/** Below this workspace width the schema browser would leave the editor too narrow (the AI diff goes inline). */
const BROWSER_MIN_WORKSPACE_WIDTH = 760

const SAVE_STATE_TEXT: Record<SaveState, string> = { IDLE: 'Saved', UPDATING: 'Saving…', UPDATING_FAILED: 'Failed to save' }

/** Drafts already stored: their later saves update the snippet (a save queued before the address changed included). */
const storedDrafts = new Set<string>()

interface SnippetWorkspaceProps {
  projectRef: string
  snippet: ContentItem
  /** /sql's draft: not stored until something is typed into it (then onCreated). */
  isDraft: boolean
  userId: string | undefined
  /** False for a Read-only member: edits stay local, nothing is sent. */
  canSave: boolean
  /** sql.write: a write confirmed at the gate runs on the full connection at once. */
  canWrite: boolean
  isSmall: boolean
  onCreated: (item: ContentItem) => void
  onDuplicate: () => void
}

/**
 * One snippet: toolbar, Monaco, the run flow and its results. A snippet changes only by typing into it, and only
 * its owner's typing: a shared snippet of someone else opens read-only, with "Duplicate to my queries".
 */
export function SnippetWorkspace({ projectRef, snippet, isDraft, userId, canSave, canWrite, isSmall, onCreated, onDuplicate }: SnippetWorkspaceProps) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const id = snippet.id
  const ownsIt = isDraft || snippet.owner_id === userId
  const saves = canSave && ownsIt
  const draft = useDraft(projectRef, id)
  // Another member's shared snippet shows as stored: nothing typed here earlier is put back into it.
  const [initialSql] = useState(() => (ownsIt ? (restoreDraft(projectRef, id, snippet.content.sql, snippet.updated_at) ?? snippet.content.sql) : snippet.content.sql))
  const [rowLimit, setRowLimit] = useState(readRowLimit)
  const [statementTimeout, setStatementTimeout] = useState(readTimeout)
  // Closed until the member opens it: beside the explorer it leaves the editor narrow (the AI diff goes inline).
  const [browserOpen, setBrowserOpen] = useState(() => window.localStorage.getItem(BROWSER_KEY) === 'open')
  // Under 760 px (the assistant or another side panel open) the editor keeps its room: the browser steps aside.
  const body = useRef<HTMLDivElement>(null)
  const noRoomForBrowser = useNarrowerThan(body, BROWSER_MIN_WORKSPACE_WIDTH)
  const handle = useRef<EditorHandle | null>(null)
  const insertName = useCallback((text: string) => handle.current?.insert(text), [])
  const runs = useRuns(`${projectRef}/${id}`)
  const runner = useSqlRunner({ projectRef, runKey: `${projectRef}/${id}`, rowLimit, statementTimeoutMs: statementTimeout, canWrite })
  const [explain, setExplain] = useState<ExplainState | null>(null)
  const explainSeq = useRef(0)
  const [, setSearchParams] = useLatestSearchParams()

  const runExplain = async (analyze: boolean) => {
    const runnable = currentRunnable()
    const problem = explainProblem(runnable.sql, analyze)
    if (problem) {
      toast.info(problem)
      return
    }
    const sql = explainSql(runnable.sql, analyze)
    const seq = ++explainSeq.current
    setExplain({ analyze, sql, status: 'running' })
    const settle = (next: ExplainState) => {
      if (seq === explainSeq.current) setExplain(next)
    }
    try {
      const outcome = await runQuery({ ref: projectRef, query: sql, readOnly: true })
      if (outcome.kind !== 'ok') return settle({ analyze, sql, status: 'error', error: outcome.message })
      const results = outcome.response.results
      const plan = parsePlan(results[results.length - 1]?.rows ?? [])
      settle(plan ? { analyze, sql, status: 'done', plan } : { analyze, sql, status: 'error', error: 'The plan could not be read' })
    } catch (error) {
      settle({ analyze, sql, status: 'error', error: errorMessage(error) })
    }
  }
  const closeExplain = () => {
    explainSeq.current++
    setExplain(null)
  }
  const run = (runnable: Parameters<typeof runner.run>[0]) => {
    closeExplain()
    runner.run(runnable)
  }

  const saver = useMemo<DraftSaver | undefined>(
    () =>
      saves
        ? {
            save: async (sql) => {
              if (isDraft && !storedDrafts.has(id)) {
                // Nothing typed but blanks: nothing to keep (an empty untitled query is never stored).
                if (!sql.trim()) return
                const item = await createSnippet({ ref: projectRef, id, sql })
                storedDrafts.add(id)
                void storeCreatedSnippet(queryClient, projectRef, item)
                onCreated(item)
                return
              }
              const current = queryClient.getQueryData<ContentItem>(contentKeys.snippet(projectRef, id)) ?? snippet
              storeSnippet(queryClient, projectRef, await saveSnippet(projectRef, current, { sql }))
            },
            onFailed: (error) => toast.error(`Failed to insert content: ${errorMessage(error)}`),
          }
        : undefined,
    [saves, isDraft, onCreated, projectRef, id, queryClient, snippet, toast],
  )

  // A draft restored from local storage (reload, failed save) is saved again.
  useEffect(() => {
    if (initialSql !== snippet.content.sql && saver) setDraft(projectRef, id, initialSql, saver, snippet.updated_at)
    // Only on mount: later edits schedule their own saves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // The results grid's chunk loads while the editor waits for a first run: its rows then show as soon as they arrive.
  usePreload(ResultsGrid)

  const latest = runs[0]
  const getSql = useCallback(() => handle.current?.getValue() ?? getDraft(projectRef, id).sql ?? snippet.content.sql, [projectRef, id, snippet.content.sql])
  // Before Monaco has loaded (a click on Run right after opening the page) the whole saved text runs, as the editor would run it.
  const currentRunnable = (): Runnable => handle.current?.getRunnable() ?? { sql: getSql(), offset: 0 }
  // A draft is named once stored (an upsert of the name would store it before its SQL).
  useAutoTitle({ projectRef, snippet, canSave: saves && !isDraft, latestRun: latest, getSql })
  // One marker per run: a new object on every render re-marked the old offset after each edit (under whatever text is there now).
  const marker = useMemo<ErrorMarker | null>(
    () => (latest?.error?.position !== undefined && !runner.running ? { offset: latest.offset + latest.error.position - 1, message: latest.error.message } : null),
    [latest, runner.running],
  )

  const editor = (
    <SqlEditor
      key={id}
      initialValue={initialSql}
      handleRef={handle}
      marker={marker}
      readOnly={!ownsIt}
      onChange={(sql) => {
        // The version typed over: the snippet as last saved (a draft's base), so a stale local copy is never restored over a newer one.
        if (ownsIt) setDraft(projectRef, id, sql, saver, queryClient.getQueryData<ContentItem>(contentKeys.snippet(projectRef, id))?.updated_at ?? snippet.updated_at)
      }}
      onRun={run}
      projectRef={projectRef}
    />
  )
  const results = explain ? (
    <ExplainView state={explain} onClose={closeExplain} />
  ) : (
    <ResultsPanel
      runs={runs}
      running={runner.running}
      cancelling={runner.cancelling}
      onCancel={runner.cancel}
      gridKey={`${projectRef}.${id}`}
      fileName={snippet.name.replace(/[\\/:*?"<>|]+/g, '_') || 'results'}
    />
  )

  return (
    <div className="sql-workspace">
      <div className="sql-toolbar">
        <div className="sql-toolbar-title">
          <h1 className="sql-snippet-name" title={snippet.name}>
            {snippet.name}
          </h1>
          {saves ? (
            <span className={`save-state save-state-${draft.saveState.toLowerCase()}`} role="status" data-save-state={isDraft && draft.sql === undefined && draft.saveState === 'IDLE' ? 'DRAFT' : draft.saveState}>
              {isDraft && draft.sql === undefined && draft.saveState === 'IDLE'
                ? 'New query: saved once you type'
                : draft.sql !== undefined && draft.saveState === 'IDLE'
                  ? 'Unsaved changes'
                  : SAVE_STATE_TEXT[draft.saveState]}
            </span>
          ) : null}
          {!ownsIt ? <span className="save-state">Read-only</span> : null}
          {draft.saveState === 'UPDATING_FAILED' && saver ? (
            <Button size="sm" variant="ghost" onClick={() => saveDraftNow(projectRef, id, saver)}>
              Retry
            </Button>
          ) : null}
        </div>
        <div className="sql-toolbar-actions">
          {isSmall ? null : (
            <IconButton
              size="sm"
              label={noRoomForBrowser ? 'Schema browser' : browserOpen ? 'Hide schema browser' : 'Show schema browser'}
              icon={<PanelLeft size={14} aria-hidden="true" />}
              aria-pressed={browserOpen && !noRoomForBrowser}
              disabled={noRoomForBrowser}
              disabledReason="The schema browser needs a wider editor: close the side panel or widen the window."
              onClick={() => {
                window.localStorage.setItem(BROWSER_KEY, browserOpen ? 'closed' : 'open')
                setBrowserOpen(!browserOpen)
              }}
            />
          )}
          {/* Icon buttons (named for screen readers, titled for the pointer): the toolbar fits one row beside both side panels. */}
          <Button
            size="sm"
            variant="ghost"
            className="btn-icon"
            aria-label="History"
            title="Query history"
            icon={<History size={14} aria-hidden="true" />}
            onClick={() =>
              setSearchParams((params) => {
                params.set(QUERY_HISTORY_PARAM, 'true')
                return params
              })
            }
          />
          <Button
            size="sm"
            variant="ghost"
            className="btn-icon"
            aria-label="Ongoing queries"
            title="Ongoing queries"
            icon={<Activity size={14} aria-hidden="true" />}
            onClick={() =>
              setSearchParams((params) => {
                params.set(ONGOING_QUERIES_PARAM, 'true')
                return params
              })
            }
          />
          <Button
            size="sm"
            icon={<ListTree size={14} aria-hidden="true" />}
            loading={explain?.status === 'running' && !explain.analyze}
            disabled={explain?.status === 'running'}
            onClick={() => void runExplain(false)}
            title="Show the plan without running the query"
          >
            Explain
          </Button>
          <Button
            size="sm"
            loading={explain?.status === 'running' && explain.analyze}
            disabled={explain?.status === 'running'}
            onClick={() => void runExplain(true)}
            title="Run the query (a single SELECT) and show the plan with actual rows and times"
          >
            Explain analyze
          </Button>
          <Button
            size="sm"
            variant="ghost"
            className="btn-icon"
            aria-label="Edit with AI"
            icon={<Sparkles size={14} aria-hidden="true" />}
            disabled={!ownsIt}
            onClick={() => handle.current?.editWithAi()}
            title="Edit with AI: the selection, or at the cursor (Cmd/Ctrl+K)"
          />
          <Button
            size="sm"
            variant="ghost"
            className="btn-icon"
            aria-label="Format"
            icon={<WandSparkles size={14} aria-hidden="true" />}
            disabled={!ownsIt}
            onClick={() => void handle.current?.format()}
            title="Format SQL: the selection, or all (Shift+Alt+F)"
          />
          <Select
            aria-label="Statement timeout"
            title="How long each statement may run before Postgres cancels it (default 1 min)"
            value={statementTimeout}
            onChange={(e) => {
              const next = Number(e.target.value)
              setStatementTimeout(next)
              window.localStorage.setItem(TIMEOUT_KEY, String(next))
            }}
          >
            {STATEMENT_TIMEOUT_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {timeoutLabel(option)}
              </option>
            ))}
          </Select>
          <Select
            aria-label="Row limit"
            value={rowLimit}
            onChange={(e) => {
              const next = Number(e.target.value)
              setRowLimit(next)
              window.localStorage.setItem(ROW_LIMIT_KEY, String(next))
            }}
          >
            {ROW_LIMIT_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {option === NO_ROW_LIMIT ? 'No limit' : `Limit ${option.toLocaleString('en-US')}`}
              </option>
            ))}
          </Select>
          <Button
            variant="primary"
            size="sm"
            icon={<Play size={14} aria-hidden="true" />}
            loading={runner.running !== null}
            onClick={() => run(currentRunnable())}
            title="Run the selection, or all (Ctrl+Enter)"
          >
            Run
          </Button>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button size="sm" variant="primary" className="btn-icon" aria-label="More ways to run" title="More ways to run" disabled={runner.running !== null} icon={<ChevronDown size={14} aria-hidden="true" />} />
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              <DropdownMenuItem icon={<Play size={14} />} onSelect={() => run(currentRunnable())}>
                Run selection or all <kbd className="sql-run-kbd">Ctrl+Enter</kbd>
              </DropdownMenuItem>
              <DropdownMenuItem
                icon={<Play size={14} />}
                onSelect={() => {
                  const statement = handle.current?.getStatementRunnable()
                  if (statement) run(statement)
                }}
              >
                Run statement at cursor <kbd className="sql-run-kbd">Ctrl+Shift+Enter</kbd>
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
      {!ownsIt ? (
        <div className="sql-alert" data-testid="shared-read-only">
          <Alert
            tone="info"
            title={`Shared by ${snippet.owner.username || 'another member'}`}
            actions={
              canSave ? (
                <Button size="sm" icon={<Copy size={14} aria-hidden="true" />} onClick={onDuplicate}>
                  Duplicate to my queries
                </Button>
              ) : undefined
            }
          >
            Only its owner can change this query. You can run it, or duplicate it to change your own copy.
          </Alert>
        </div>
      ) : null}
      {!canSave ? (
        <div className="sql-alert">
          <Alert tone="warning">{CONTENT_TEXTS.cannotSave}</Alert>
        </div>
      ) : null}
      {isSmall ? (
        <div className="sql-stack">
          <div className="sql-stack-editor">{editor}</div>
          <div className="sql-stack-results">{results}</div>
        </div>
      ) : (
        <div className="sql-workspace-body" ref={body}>
          {browserOpen && !noRoomForBrowser ? <SchemaBrowser projectRef={projectRef} onInsert={insertName} /> : null}
          <Group orientation="vertical" className="sql-split" id="sql-editor-split">
            <Panel id="sql-editor-panel" defaultSize="50%" minSize="15%">
              {editor}
            </Panel>
            <Separator className="resize-handle resize-handle-horizontal" aria-label="Resize results" />
            <Panel id="sql-results-panel" defaultSize="50%" minSize="15%">
              {results}
            </Panel>
          </Group>
        </div>
      )}
      <RunWarningDialog warning={runner.gate?.warning ?? null} destructive={runner.gate?.destructive} onRun={runner.confirmGate} onCancel={runner.cancelGate} />
      <WriteConnectionDialog message={runner.writePrompt?.message ?? null} onConfirm={runner.confirmWrite} onCancel={runner.declineWrite} />
    </div>
  )
}
