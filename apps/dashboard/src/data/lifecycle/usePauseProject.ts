import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { markOperationStarted } from './markOperationStarted'

export const pauseProject = ({ ref }: { ref: string }) =>
  request('POST /platform/projects/{ref}/pause', { params: { ref } })

/** GOING_DOWN, PAUSING (the instance stops and a physical backup is taken), then INACTIVE. */
export function usePauseProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: pauseProject,
    onSuccess: (_result, { ref }) => markOperationStarted(queryClient, ref, 'GOING_DOWN'),
  })
}
