import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { backupKeys } from '../backups/keys'
import { projectKeys } from './keys'

export const deleteProject = ({ ref }: { ref: string }) =>
  request('DELETE /platform/projects/{ref}', { params: { ref } })

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
