import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { lifecycleKeys } from './keys'
import { markOperationStarted } from './markOperationStarted'

export interface RestoreProjectVariables {
  ref: string
  /** Optional: the Postgres version chosen in the restore dialog. */
  postgres_engine?: string
  release_channel?: string
}

export const restoreProject = ({ ref, ...body }: RestoreProjectVariables) =>
  api<{ operation_id: string }>(`/platform/projects/${encodeURIComponent(ref)}/restore`, { method: 'POST', body })

/** RESTORING, then ACTIVE_HEALTHY. */
export function useRestoreProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: restoreProject,
    onSuccess: async (_result, { ref }) => {
      await markOperationStarted(queryClient, ref, 'RESTORING')
      return queryClient.invalidateQueries({ queryKey: lifecycleKeys.pauseStatus(ref) })
    },
  })
}
