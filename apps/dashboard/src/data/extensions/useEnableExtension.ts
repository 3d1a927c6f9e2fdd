import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { EnableExtensionBody } from '@stratum/contracts'
import { request } from '../request'
import { extensionKeys } from './keys'

export const enableExtension = ({ ref, body }: { ref: string; body: EnableExtensionBody }) =>
  request('POST /platform/pg-meta/{ref}/extensions', { params: { ref }, body })

export function useEnableExtension() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: enableExtension,
    // CASCADE may have enabled others too: the whole list is read again.
    onSettled: (_result, _error, { ref }) => queryClient.invalidateQueries({ queryKey: extensionKeys.list(ref) }),
  })
}
