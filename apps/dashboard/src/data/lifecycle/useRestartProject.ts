import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { markOperationStarted } from './markOperationStarted'

export const restartProject = ({ ref }: { ref: string }) =>
  api<{ operation_id: string }>(`/platform/projects/${encodeURIComponent(ref)}/restart`, { method: 'POST' })

/** RESTARTING, then ACTIVE_HEALTHY once Postgres accepts connections again. */
export function useRestartProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: restartProject,
    onSuccess: (_result, { ref }) => markOperationStarted(queryClient, ref, 'RESTARTING'),
  })
}
