import { useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { profileKeys } from './keys'

export const getPermissions = (signal?: AbortSignal) =>
  request('GET /platform/profile/permissions', { signal })

/** Read only to hide or disable controls: the server checks every call itself. */
export function usePermissions() {
  return useQuery({
    queryKey: profileKeys.permissions(),
    queryFn: ({ signal }) => getPermissions(signal),
    staleTime: 60_000,
  })
}
