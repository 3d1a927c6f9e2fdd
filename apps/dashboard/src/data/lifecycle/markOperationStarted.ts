import type { QueryClient } from '@tanstack/react-query'
import type { Project, ProjectStatus } from '@stratum/contracts'
import { projectKeys } from '../projects/keys'

/**
 * The server sets the project's status when it accepts an operation (RESTARTING, GOING_DOWN...).
 * Show that status at once, in the project and in the polled status, so the takeover screen
 * appears without waiting for the next poll (and an older polled value cannot undo it).
 */
export async function markOperationStarted(queryClient: QueryClient, ref: string, status: ProjectStatus, patch: Partial<Project> = {}) {
  // A fetch of the project or its status already in flight (a refetch after the project came up, a poll, a refetch on
  // focus) answers with the status from before the operation: landing after the one set here, it took the takeover
  // screen away and, the old status not being polled, for good. Cancelled first, as for any optimistic update.
  await Promise.all([
    queryClient.cancelQueries({ queryKey: projectKeys.status(ref), exact: true }),
    queryClient.cancelQueries({ queryKey: projectKeys.detail(ref), exact: true }),
  ])
  queryClient.setQueryData(projectKeys.status(ref), { status })
  queryClient.setQueryData<Project>(projectKeys.detail(ref), (project) => (project ? { ...project, ...patch, status } : project))
  return queryClient.invalidateQueries({ queryKey: projectKeys.lists() })
}
