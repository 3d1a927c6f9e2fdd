import { useQuery } from '@tanstack/react-query'
import { JWT_SECRET_UPDATE_STATUS, type JwtSecretUpdateStatus } from '@stratum/contracts'
import { api } from '../api'
import { apiKeyKeys } from './keys'

/** The spec's poll while a JWT secret update runs. */
export const JWT_UPDATE_POLL_MS = 1000

export const getJwtSecretUpdateStatus = (ref: string, signal?: AbortSignal) =>
  api<JwtSecretUpdateStatus>(`/platform/projects/${encodeURIComponent(ref)}/config/secrets/update-status`, { signal })

/** The latest JWT secret update (null when there was none); polled every second while it is Updating. */
export function useJwtSecretUpdateStatus(ref: string | undefined) {
  return useQuery({
    queryKey: apiKeyKeys.updateStatus(ref ?? ''),
    queryFn: ({ signal }) => getJwtSecretUpdateStatus(ref!, signal),
    enabled: Boolean(ref),
    refetchInterval: (query) =>
      query.state.data?.update_status?.status === JWT_SECRET_UPDATE_STATUS.Updating ? JWT_UPDATE_POLL_MS : false,
  })
}
