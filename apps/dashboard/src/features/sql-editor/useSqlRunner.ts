import { findDestructiveOperations, getQueryWarning, isEmptySql, parseParameters, substituteParameters, type DestructiveOperation, type QueryWarning } from '@stratum/sql'
import type { SqlHistoryParameter } from '@stratum/contracts'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useRef, useState } from 'react'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import type { PartialResults } from '../../data/sql/readQueryStream'
import { runQuery } from '../../data/sql/runQuery'
import { cancelRunningQuery } from '../../data/sql/useCancelQuery'
import { sqlKeys } from '../../data/sql/keys'
import { sqlCatalogKeys } from '../../data/sql/useSqlCatalog'
import { sqlCompletionKeys } from '../../data/sql/useTableCompletions'
import { addRun } from './results'

export interface Runnable {
  sql: string
  /** Offset of `sql` in the editor's text (non-zero when a selection runs). */
  offset: number
  /** The text as written when named parameters were filled in (`sql` holds the values): the history keeps it, with the values. */
  written?: WrittenQuery
}

export interface WrittenQuery {
  sql: string
  parameters: SqlHistoryParameter[]
}

export interface RunningQuery extends Runnable {
  startedAt: number
  readOnly: boolean
  /** The rows that arrived so far (the editor asks for a streamed answer). */
  partial?: PartialResults
}

export interface WritePrompt extends Runnable {
  message: string
}

/** The warning gate: the spec's warning, and the destructive statements among the query's (their own, stronger warning). */
export interface Gate extends Runnable {
  warning: QueryWarning
  destructive: DestructiveOperation[]
}

/**
 * Running SQL from the editor: the warning gate for writes and function calls, the read-only
 * connection first and the confirmation to re-run on the full connection, cancelling, and the
 * run history of the snippet (`runKey`).
 *
 * One confirmation per write: what the user confirmed at the gate runs on the full connection
 * straight away when their role has it (`canWrite`); what the gate let through (plain selects)
 * still runs read-only first, and a refusal there asks once to run it with write access.
 */
export function useSqlRunner({
  projectRef,
  runKey,
  rowLimit,
  statementTimeoutMs,
  canWrite,
}: {
  projectRef: string
  runKey: string
  rowLimit: number
  /** The run's statement timeout (ms); the server's default when absent. */
  statementTimeoutMs?: number
  canWrite: boolean
}) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const [running, setRunning] = useState<RunningQuery | null>(null)
  const [gate, setGate] = useState<Gate | null>(null)
  const [writePrompt, setWritePrompt] = useState<WritePrompt | null>(null)
  const [cancelling, setCancelling] = useState(false)
  const busy = useRef(false)

  const execute = useCallback(
    async ({ sql, offset, written }: Runnable, readOnly: boolean) => {
      if (busy.current) return
      busy.current = true
      const startedAt = Date.now()
      setRunning({ sql, offset, startedAt, readOnly })
      const base = { sql, offset, ranAt: startedAt }
      try {
        const onProgress = (partial: PartialResults) => setRunning((current) => current && { ...current, partial })
        const outcome = await runQuery({ ref: projectRef, query: sql, readOnly, rowLimit, statementTimeoutMs, history: true, written, onProgress })
        const elapsedMs = Date.now() - startedAt
        if (outcome.kind === 'ok') {
          addRun(runKey, { ...base, elapsedMs, response: outcome.response })
          void queryClient.invalidateQueries({ queryKey: sqlKeys.history(projectRef) })
          // A write may have changed the schema: completion lists it again.
          if (!readOnly) {
            void queryClient.invalidateQueries({ queryKey: sqlCompletionKeys.tables(projectRef) })
            void queryClient.invalidateQueries({ queryKey: sqlCatalogKeys.catalog(projectRef) })
          }
        }
        else if (outcome.kind === 'write-required' && outcome.canRunWithFullConnection) setWritePrompt({ sql, offset, written, message: outcome.message })
        else {
          void queryClient.invalidateQueries({ queryKey: sqlKeys.history(projectRef) })
          addRun(runKey, {
            ...base,
            elapsedMs,
            response: outcome.response,
            error: {
              message: outcome.message,
              position: outcome.error?.position,
              statementIndex: outcome.error?.statement_index,
              code: outcome.error?.code,
              detail: outcome.error?.detail,
              hint: outcome.error?.hint,
            },
          })
        }
      } catch (error) {
        const message = errorMessage(error)
        addRun(runKey, { ...base, elapsedMs: Date.now() - startedAt, error: { message } })
        toast.error(`Failed to execute query: ${message}`)
      } finally {
        busy.current = false
        setRunning(null)
        setCancelling(false)
      }
    },
    [projectRef, queryClient, rowLimit, statementTimeoutMs, runKey, toast],
  )

  /**
   * Runs, or first asks through the warning gate. Empty SQL is not run. Named parameters (`:name`,
   * declared by `@set name:type = value`) are filled in with their declared values first.
   */
  const run = useCallback(
    (written: Runnable) => {
      if (busy.current || isEmptySql(written.sql)) return
      let runnable = written
      const parameters = parseParameters(written.sql)
      if (parameters.length > 0) {
        try {
          runnable = { ...written, sql: substituteParameters(written.sql), written: { sql: written.sql, parameters: parameters.map(({ name, value }) => ({ name, value })) } }
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error)
          addRun(runKey, { sql: written.sql, offset: written.offset, ranAt: Date.now(), elapsedMs: 0, error: { message } })
          return
        }
      }
      const warning = getQueryWarning(runnable.sql)
      if (warning) setGate({ ...runnable, warning, destructive: findDestructiveOperations(runnable.sql) })
      else void execute(runnable, true)
    },
    [execute, runKey],
  )

  const confirmGate = useCallback(() => {
    if (!gate) return
    setGate(null)
    void execute({ sql: gate.sql, offset: gate.offset, written: gate.written }, !canWrite)
  }, [gate, execute, canWrite])

  const confirmWrite = useCallback(() => {
    if (!writePrompt) return
    setWritePrompt(null)
    void execute(writePrompt, false)
  }, [writePrompt, execute])

  const declineWrite = useCallback(() => {
    if (!writePrompt) return
    addRun(runKey, { sql: writePrompt.sql, offset: writePrompt.offset, ranAt: Date.now(), elapsedMs: 0, error: { message: writePrompt.message } })
    setWritePrompt(null)
  }, [runKey, writePrompt])

  const cancel = useCallback(async () => {
    if (!running) return
    setCancelling(true)
    try {
      const cancelled = await cancelRunningQuery({ ref: projectRef, query: running.sql })
      if (!cancelled) {
        setCancelling(false)
        toast.info('The query is no longer running on the database')
      }
    } catch (error) {
      setCancelling(false)
      toast.error(`Failed to cancel query: ${errorMessage(error)}`)
    }
  }, [projectRef, running, toast])

  return {
    running,
    cancelling,
    run,
    cancel,
    gate,
    confirmGate,
    cancelGate: () => setGate(null),
    writePrompt,
    confirmWrite,
    declineWrite,
  }
}
