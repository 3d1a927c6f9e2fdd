import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type RouteOptions } from '../request'
import { lifecycleKeys } from './keys'
import { markOperationStarted } from './markOperationStarted'

/** Optional: the Postgres version chosen in the restore dialog (one of GET .../restore/versions). */
export type RestoreProjectVariables = { ref: string } & RouteOptions<'POST /platform/projects/{ref}/restore'>['body']

export const restoreProject = ({ ref, ...body }: RestoreProjectVariables) =>
  request('POST /platform/projects/{ref}/restore', { params: { ref }, body })

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
