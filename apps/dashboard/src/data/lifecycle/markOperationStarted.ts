import type { QueryClient } from '@tanstack/react-query'
import type { Project, ProjectStatus } from '@stratum/contracts'
import { projectKeys } from '../projects/keys'

/**
 * The server sets the project's status when it accepts an operation (RESTARTING, GOING_DOWN...).
 * Show that status at once, in the project and in the polled status, so the takeover screen
 * appears without waiting for the next poll (and an older polled value cannot undo it).
 */
export function markOperationStarted(queryClient: QueryClient, ref: string, status: ProjectStatus, patch: Partial<Project> = {}) {
  queryClient.setQueryData(projectKeys.status(ref), { status })
  queryClient.setQueryData<Project>(projectKeys.detail(ref), (project) => (project ? { ...project, ...patch, status } : project))
  return queryClient.invalidateQueries({ queryKey: projectKeys.lists() })
}
