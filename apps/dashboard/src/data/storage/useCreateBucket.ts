import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreateBucketBody } from '@stratum/contracts'
import { request } from '../request'
import { storageKeys } from './keys'

export const createBucket = ({ ref, body }: { ref: string; body: CreateBucketBody }) =>
  request('POST /platform/storage/{ref}/buckets', { params: { ref }, body })

export function useCreateBucket() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createBucket,
    onSuccess: (_bucket, { ref }) => queryClient.invalidateQueries({ queryKey: storageKeys.buckets(ref) }),
  })
}
