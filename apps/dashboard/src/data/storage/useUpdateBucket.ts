import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { UpdateBucketBody } from '@stratum/contracts'
import { request } from '../request'
import { storageKeys } from './keys'

export const updateBucket = ({ ref, id, body }: { ref: string; id: string; body: UpdateBucketBody }) =>
  request('PUT /platform/storage/{ref}/buckets/{id}', { params: { ref, id }, body })

export function useUpdateBucket() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateBucket,
    onSuccess: (_bucket, { ref }) => queryClient.invalidateQueries({ queryKey: storageKeys.buckets(ref) }),
  })
}
