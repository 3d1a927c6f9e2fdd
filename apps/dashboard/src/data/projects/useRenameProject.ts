import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Project } from '@stratum/contracts'
import { request } from '../request'
import { projectKeys } from './keys'

export const renameProject = ({ ref, name }: { ref: string; name: string }) => request('PATCH /v1/projects/{ref}', { params: { ref }, body: { name } })

/** A new display name (the ref stays): shown at once in the project, then every list read again. */
export function useRenameProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: renameProject,
    onSuccess: ({ ref, name }) => {
      queryClient.setQueryData<Project>(projectKeys.detail(ref), (project) => (project ? { ...project, name } : project))
      return queryClient.invalidateQueries({ queryKey: projectKeys.lists() })
    },
  })
}
