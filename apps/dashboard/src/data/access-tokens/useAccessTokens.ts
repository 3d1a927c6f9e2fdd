import { useQuery } from '@tanstack/react-query'
import type { AccessToken } from '@stratum/contracts'
import { api } from '../api'
import { accessTokenKeys } from './keys'

export const getAccessTokens = (signal?: AbortSignal) =>
  api<AccessToken[]>('/platform/profile/access-tokens', { signal })

export function useAccessTokens() {
  return useQuery({ queryKey: accessTokenKeys.list(), queryFn: ({ signal }) => getAccessTokens(signal) })
}
