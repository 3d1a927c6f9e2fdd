import { useEffect, useState } from 'react'
import { queryOptions, skipToken, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import type { Project, ProjectStatus } from '@stratum/contracts'
import { request } from '../request'
import { backupKeys } from '../backups/keys'
import { lifecycleKeys } from '../lifecycle/keys'
import { projectKeys } from './keys'

export const getProjectStatus = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/status', { params: { ref }, signal })

export const projectStatusQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: projectKeys.status(ref ?? ''),
    queryFn: ref ? ({ signal }) => getProjectStatus(ref, signal) : skipToken,
    // A status set when an operation was accepted stands until the first poll one interval later.
    staleTime: 1000,
  })

/** The spec's polling: 4 s while a takeover screen shows; the pausing screen 2 s, after a 4 s delay. */
export const TAKEOVER_POLL_MS = 4000
export const PAUSING_POLL_MS = 2000
export const PAUSING_POLL_DELAY_MS = 4000

/** Statuses that change by themselves (or by someone else's action), and how often to look (ms). */
export function statusPollInterval(status: ProjectStatus | undefined): number | false {
  switch (status) {
    case 'GOING_DOWN':
    case 'PAUSING':
      return PAUSING_POLL_MS
    case 'COMING_UP':
    case 'UNKNOWN':
    case 'RESTARTING':
    case 'RESIZING':
    case 'UPGRADING':
    case 'RESTORING':
    case 'PAUSE_FAILED':
    case 'RESTORE_FAILED':
    case 'ACTIVE_UNHEALTHY':
      return TAKEOVER_POLL_MS
    default:
      return false
  }
}

/** True once `ms` have passed since `key` last became non-null (true at once for a null key). */
function useDelayPassed(key: string | null, ms: number): boolean {
  const [state, setState] = useState<{ key: string | null; passed: boolean }>({ key, passed: false })
  if (state.key !== key) setState({ key, passed: false })
  useEffect(() => {
    if (key === null) return
    const timer = window.setTimeout(() => setState((now) => (now.key === key ? { key, passed: true } : now)), ms)
    return () => window.clearTimeout(timer)
  }, [key, ms])
  return key === null || (state.key === key && state.passed)
}

/**
 * Polls /status while the project is in a status that changes by itself. When the polled status
 * differs from the project's (and is newer than it), the new status is shown at once and the full
 * project (version, size, connection details) and what depends on the status are refetched.
 */
export function useProjectStatusWatcher(ref: string | undefined, project: UseQueryResult<Project>) {
  const queryClient = useQueryClient()
  const current = project.data?.status
  const interval = statusPollInterval(current)
  const pausing = current === 'GOING_DOWN' || current === 'PAUSING'
  const delayPassed = useDelayPassed(pausing && ref ? `pausing:${ref}` : null, PAUSING_POLL_DELAY_MS)
  const { data, dataUpdatedAt } = useQuery({ ...projectStatusQuery(ref), enabled: interval !== false && delayPassed, refetchInterval: interval })
  const polled = data?.status
  const projectUpdatedAt = project.dataUpdatedAt

  useEffect(() => {
    if (!ref || !polled || !current || polled === current) return
    // The project was fetched after this poll: it knows better.
    if (dataUpdatedAt <= projectUpdatedAt) return
    // Into a status that changes by itself (a takeover screen): shown at once. Out of one (a resize or an upgrade done):
    // the takeover screen stays until the project is read again, so the page behind it never shows the project of
    // before (the old size marked Current, the old version) for the moment the read takes.
    if (statusPollInterval(polled) !== false) {
      queryClient.setQueryData<Project>(projectKeys.detail(ref), (previous) => (previous ? { ...previous, status: polled } : previous))
    }
    void queryClient.invalidateQueries({ queryKey: projectKeys.detail(ref) })
    void queryClient.invalidateQueries({ queryKey: projectKeys.lists() })
    void queryClient.invalidateQueries({ queryKey: backupKeys.project(ref) })
    void queryClient.invalidateQueries({ queryKey: lifecycleKeys.pauseStatus(ref) })
  }, [ref, polled, current, dataUpdatedAt, projectUpdatedAt, queryClient])
}
