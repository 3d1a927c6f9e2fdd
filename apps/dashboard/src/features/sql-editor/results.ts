import type { SqlQueryResponse } from '@stratum/contracts'
import { useSyncExternalStore } from 'react'

/** One run of a snippet: its results, or the error it ended with (and the results before it). */
export interface RunRecord {
  id: number
  sql: string
  /** Where the run SQL starts in the editor (a selection), to place error markers. */
  offset: number
  ranAt: number
  elapsedMs: number
  response?: SqlQueryResponse
  error?: { message: string; position?: number; statementIndex?: number; code?: string; detail?: string; hint?: string }
}

/** Results kept newest first per snippet, in memory (the SQL editor spec's results history). */
const MAX_RUNS_PER_SNIPPET = 20
const runs = new Map<string, RunRecord[]>()
const listeners = new Set<() => void>()
const EMPTY: RunRecord[] = []
let nextId = 1

export function addRun(key: string, record: Omit<RunRecord, 'id'>): RunRecord {
  const full = { ...record, id: nextId++ }
  runs.set(key, [full, ...(runs.get(key) ?? EMPTY)].slice(0, MAX_RUNS_PER_SNIPPET))
  listeners.forEach((notify) => notify())
  return full
}

export function useRuns(key: string): RunRecord[] {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify)
      return () => listeners.delete(notify)
    },
    () => runs.get(key) ?? EMPTY,
  )
}
