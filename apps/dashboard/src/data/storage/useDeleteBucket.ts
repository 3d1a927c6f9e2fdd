import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { storageKeys } from './keys'

export const deleteBucket = ({ ref, id }: { ref: string; id: string }) =>
  request('DELETE /platform/storage/{ref}/buckets/{id}', { params: { ref, id } })

export function useDeleteBucket() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteBucket,
    onSuccess: (_result, { ref }) => queryClient.invalidateQueries({ queryKey: storageKeys.buckets(ref) }),
  })
}
