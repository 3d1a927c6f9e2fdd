import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { sqlKeys } from './keys'

export type SignalKind = 'cancel' | 'terminate'

/** POST .../query/cancel (pg_cancel_backend) or .../query/terminate (pg_terminate_backend, needs sql.write). */
export async function signalQuery({ ref, pid, how }: { ref: string; pid: number; how: SignalKind }): Promise<boolean> {
  const body = await api<{ pid: number; cancelled?: boolean; terminated?: boolean }>(
    `/platform/pg-meta/${encodeURIComponent(ref)}/query/${how}`,
    { method: 'POST', body: { pid } },
  )
  return how === 'cancel' ? body.cancelled === true : body.terminated === true
}

export function useSignalQuery() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signalQuery,
    onSettled: (_data, _error, { ref }) => queryClient.invalidateQueries({ queryKey: sqlKeys.ongoing(ref) }),
  })
}
