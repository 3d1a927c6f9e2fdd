import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { backupKeys } from '../backups/keys'
import { projectKeys } from './keys'

export const deleteProject = ({ ref }: { ref: string }) =>
  api<{ id: number; name: string; ref: string }>(`/platform/projects/${encodeURIComponent(ref)}`, { method: 'DELETE' })

/**
 * Removes the project for good. The caller leaves the project's pages first; the project's own
 * cached data is dropped after that, so nothing refetches a project that no longer exists.
 */
export function useDeleteProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.lists() }),
  })
}

export function forgetProject(queryClient: QueryClient, ref: string) {
  queryClient.removeQueries({ queryKey: projectKeys.detail(ref) })
  queryClient.removeQueries({ queryKey: projectKeys.status(ref) })
  queryClient.removeQueries({ queryKey: backupKeys.project(ref) })
}
