import { useEffect } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Project, ProjectStatus } from '@stratum/contracts'
import { api } from '../api'
import { projectKeys } from './keys'

export const getProjectStatus = (ref: string, signal?: AbortSignal) =>
  api<{ status: ProjectStatus }>(`/platform/projects/${encodeURIComponent(ref)}/status`, { signal })

/** Statuses that change by themselves, and how often to look (ms). Stable statuses are not polled. */
export function statusPollInterval(status: ProjectStatus | undefined): number | false {
  switch (status) {
    case 'COMING_UP':
    case 'UNKNOWN':
      return 1500 // provisioning takes seconds here: follow it closely
    case 'GOING_DOWN':
    case 'PAUSING':
    case 'RESTARTING':
    case 'RESIZING':
    case 'UPGRADING':
    case 'RESTORING':
      return 4000 // the spec's takeover-screen interval
    default:
      return false
  }
}

/**
 * Polls /status while the project is in a transitional status. When it changes, the new
 * status is shown at once and the full project (version, connection details) is refetched.
 */
export function useProjectStatusWatcher(ref: string | undefined, current: ProjectStatus | undefined) {
  const queryClient = useQueryClient()
  const interval = statusPollInterval(current)
  const { data, dataUpdatedAt } = useQuery({
    queryKey: projectKeys.status(ref ?? ''),
    queryFn: ({ signal }) => getProjectStatus(ref!, signal),
    enabled: Boolean(ref) && interval !== false,
    refetchInterval: interval,
  })
  const polled = data?.status

  useEffect(() => {
    if (!ref || !polled || !current || polled === current) return
    queryClient.setQueryData<Project>(projectKeys.detail(ref), (project) =>
      project ? { ...project, status: polled } : project,
    )
    void queryClient.invalidateQueries({ queryKey: projectKeys.detail(ref) })
    void queryClient.invalidateQueries({ queryKey: projectKeys.lists() })
  }, [ref, polled, current, dataUpdatedAt, queryClient])

  return polled ?? current
}
