import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { extensionKeys } from './keys'

export const disableExtension = ({ ref, name, cascade }: { ref: string; name: string; cascade: boolean }) =>
  request('DELETE /platform/pg-meta/{ref}/extensions', { params: { ref }, query: { id: name, cascade } })

export function useDisableExtension() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: disableExtension,
    onSettled: (_result, _error, { ref }) => queryClient.invalidateQueries({ queryKey: extensionKeys.list(ref) }),
  })
}
