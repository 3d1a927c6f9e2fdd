import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { markOperationStarted } from './markOperationStarted'

export const pauseProject = ({ ref }: { ref: string }) =>
  api<{ operation_id: string }>(`/platform/projects/${encodeURIComponent(ref)}/pause`, { method: 'POST' })

/** GOING_DOWN, PAUSING (the instance stops and a physical backup is taken), then INACTIVE. */
export function usePauseProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: pauseProject,
    onSuccess: (_result, { ref }) => markOperationStarted(queryClient, ref, 'GOING_DOWN'),
  })
}
