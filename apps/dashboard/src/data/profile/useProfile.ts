import { useQuery } from '@tanstack/react-query'
import { isApiError } from '../api'
import { request } from '../request'
import { profileKeys } from './keys'

export const getProfile = (signal?: AbortSignal) => request('GET /platform/profile', { signal })

/** The signed-in user. A 401 here is how the app learns it must show the sign-in page. */
export function useProfile() {
  return useQuery({
    queryKey: profileKeys.me(),
    queryFn: ({ signal }) => getProfile(signal),
    staleTime: 60_000,
    retry: (count, error) => !isApiError(error, 401) && !isApiError(error, 403) && count < 2,
  })
}
