import { useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { accessTokenKeys } from './keys'

export const getAccessTokens = (signal?: AbortSignal) =>
  request('GET /platform/profile/access-tokens', { signal })

export function useAccessTokens() {
  return useQuery({ queryKey: accessTokenKeys.list(), queryFn: ({ signal }) => getAccessTokens(signal) })
}
