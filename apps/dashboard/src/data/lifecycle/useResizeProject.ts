import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ComputeSize } from '@stratum/contracts'
import { api } from '../api'
import { markOperationStarted } from './markOperationStarted'

export const resizeProject = ({ ref, size }: { ref: string; size: ComputeSize }) =>
  api<{ operation_id: string }>(`/platform/projects/${encodeURIComponent(ref)}/resize`, {
    method: 'POST',
    body: { desired_instance_size: size },
  })

/** RESIZING (the new settings apply with a restart), then ACTIVE_HEALTHY. */
export function useResizeProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resizeProject,
    // The screen names the size being applied; the server records it as the first step.
    onSuccess: (_result, { ref, size }) => markOperationStarted(queryClient, ref, 'RESIZING', { compute_size: size }),
  })
}
