import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ComputeSize } from '@stratum/contracts'
import { request } from '../request'
import { markOperationStarted } from './markOperationStarted'
import { projectOperationsQuery } from './operations'

export const resizeProject = ({ ref, size }: { ref: string; size: ComputeSize }) =>
  request('POST /platform/projects/{ref}/resize', { params: { ref }, body: { desired_instance_size: size } })

/** RESIZING (the new settings apply with a restart), then ACTIVE_HEALTHY. */
export function useResizeProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resizeProject,
    // The Resizing screen names the size from the operation's recorded target (the project keeps its old size until
    // the operation's first step): the operations are read before the screen shows, rather than the project patched.
    onSuccess: async (_result, { ref }) => {
      await queryClient.fetchQuery({ ...projectOperationsQuery(ref), staleTime: 0 }).catch(() => undefined)
      return markOperationStarted(queryClient, ref, 'RESIZING')
    },
  })
}
