import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { storageKeys } from './keys'

export const deleteBucket = ({ ref, id }: { ref: string; id: string }) =>
  api<{ message: string }>(`/platform/storage/${encodeURIComponent(ref)}/buckets/${encodeURIComponent(id)}`, { method: 'DELETE' })

export function useDeleteBucket() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteBucket,
    onSuccess: (_result, { ref }) => queryClient.invalidateQueries({ queryKey: storageKeys.buckets(ref) }),
  })
}
