import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { JWT_SECRET_UPDATE_STATUS, type JwtSecretUpdateStatus } from '@stratum/contracts'
import { api } from '../api'
import { apiKeyKeys } from './keys'

/** The spec's poll while a JWT secret update runs. */
export const JWT_UPDATE_POLL_MS = 1000

export const getJwtSecretUpdateStatus = (ref: string, signal?: AbortSignal) =>
  api<JwtSecretUpdateStatus>(`/platform/projects/${encodeURIComponent(ref)}/config/secrets/update-status`, { signal })

/** The latest JWT secret update (null when there was none); polled every second while it is Updating. */
export const jwtSecretUpdateStatusQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: apiKeyKeys.updateStatus(ref ?? ''),
    queryFn: ref ? ({ signal }) => getJwtSecretUpdateStatus(ref, signal) : skipToken,
    refetchInterval: (query) =>
      query.state.data?.update_status?.status === JWT_SECRET_UPDATE_STATUS.Updating ? JWT_UPDATE_POLL_MS : false,
  })

export function useJwtSecretUpdateStatus(ref: string | undefined) {
  return useQuery(jwtSecretUpdateStatusQuery(ref))
}
