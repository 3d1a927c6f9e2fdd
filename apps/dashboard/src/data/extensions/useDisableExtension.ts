import { useMutation, useQueryClient } from '@tanstack/react-query'
import { extensionsPath, type Extension } from '@stratum/contracts'
import { api } from '../api'
import { extensionKeys } from './keys'

export const disableExtension = ({ ref, name, cascade }: { ref: string; name: string; cascade: boolean }) =>
  api<Extension>(`${extensionsPath(ref)}?${new URLSearchParams({ id: name, cascade: String(cascade) })}`, { method: 'DELETE' })

export function useDisableExtension() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: disableExtension,
    onSettled: (_result, _error, { ref }) => queryClient.invalidateQueries({ queryKey: extensionKeys.list(ref) }),
  })
}
