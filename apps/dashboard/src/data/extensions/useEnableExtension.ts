import { useMutation, useQueryClient } from '@tanstack/react-query'
import { extensionsPath, type EnableExtensionBody, type Extension } from '@stratum/contracts'
import { api } from '../api'
import { extensionKeys } from './keys'

export const enableExtension = ({ ref, body }: { ref: string; body: EnableExtensionBody }) =>
  api<Extension>(extensionsPath(ref), { method: 'POST', body })

export function useEnableExtension() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: enableExtension,
    // CASCADE may have enabled others too: the whole list is read again.
    onSettled: (_result, _error, { ref }) => queryClient.invalidateQueries({ queryKey: extensionKeys.list(ref) }),
  })
}
