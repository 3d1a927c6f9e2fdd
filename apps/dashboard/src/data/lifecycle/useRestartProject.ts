import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { markOperationStarted } from './markOperationStarted'

export const restartProject = ({ ref }: { ref: string }) =>
  request('POST /platform/projects/{ref}/restart', { params: { ref } })

/** RESTARTING, then ACTIVE_HEALTHY once Postgres accepts connections again. */
export function useRestartProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: restartProject,
    onSuccess: (_result, { ref }) => markOperationStarted(queryClient, ref, 'RESTARTING'),
  })
}
