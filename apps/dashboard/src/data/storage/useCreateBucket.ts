import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Bucket, CreateBucketBody } from '@stratum/contracts'
import { api } from '../api'
import { storageKeys } from './keys'

export const createBucket = ({ ref, body }: { ref: string; body: CreateBucketBody }) =>
  api<Bucket>(`/platform/storage/${encodeURIComponent(ref)}/buckets`, { method: 'POST', body })

export function useCreateBucket() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createBucket,
    onSuccess: (_bucket, { ref }) => queryClient.invalidateQueries({ queryKey: storageKeys.buckets(ref) }),
  })
}
