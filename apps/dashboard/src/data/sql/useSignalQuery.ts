import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { sqlKeys } from './keys'

export type SignalKind = 'cancel' | 'terminate'

/** POST .../query/cancel (pg_cancel_backend) or .../query/terminate (pg_terminate_backend, needs sql.write). */
export async function signalQuery({ ref, pid, how }: { ref: string; pid: number; how: SignalKind }): Promise<boolean> {
  if (how === 'cancel') return (await request('POST /platform/pg-meta/{ref}/query/cancel', { params: { ref }, body: { pid } })).cancelled
  return (await request('POST /platform/pg-meta/{ref}/query/terminate', { params: { ref }, body: { pid } })).terminated
}

export function useSignalQuery() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signalQuery,
    onSettled: (_data, _error, { ref }) => queryClient.invalidateQueries({ queryKey: sqlKeys.ongoing(ref) }),
  })
}
