import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { functionKeys } from './keys'

export const deleteFunction = ({ ref, slug }: { ref: string; slug: string }) =>
  request('DELETE /v1/projects/{ref}/functions/{function_slug}', { params: { ref, function_slug: slug } })

export function useDeleteFunction() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteFunction,
    onSuccess: (_removed, { ref, slug }) => {
      queryClient.removeQueries({ queryKey: functionKeys.detail(ref, slug) })
      queryClient.removeQueries({ queryKey: functionKeys.files(ref, slug) })
      void queryClient.invalidateQueries({ queryKey: functionKeys.list(ref) })
    },
  })
}
