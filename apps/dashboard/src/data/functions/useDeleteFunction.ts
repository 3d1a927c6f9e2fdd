import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { FunctionResponse } from '@stratum/contracts'
import { api } from '../api'
import { functionKeys } from './keys'

export const deleteFunction = ({ ref, slug }: { ref: string; slug: string }) =>
  api<FunctionResponse>(`/v1/projects/${encodeURIComponent(ref)}/functions/${encodeURIComponent(slug)}`, { method: 'DELETE' })

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
