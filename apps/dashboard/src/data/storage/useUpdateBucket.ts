import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Bucket, UpdateBucketBody } from '@stratum/contracts'
import { api } from '../api'
import { storageKeys } from './keys'

export const updateBucket = ({ ref, id, body }: { ref: string; id: string; body: UpdateBucketBody }) =>
  api<Bucket>(`/platform/storage/${encodeURIComponent(ref)}/buckets/${encodeURIComponent(id)}`, { method: 'PUT', body })

export function useUpdateBucket() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateBucket,
    onSuccess: (_bucket, { ref }) => queryClient.invalidateQueries({ queryKey: storageKeys.buckets(ref) }),
  })
}
