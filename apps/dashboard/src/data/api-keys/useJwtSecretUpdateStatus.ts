import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { JWT_SECRET_UPDATE_STATUS } from '@stratum/contracts'
import { request } from '../request'
import { apiKeyKeys } from './keys'

/** The spec's poll while a JWT secret update runs. */
export const JWT_UPDATE_POLL_MS = 1000

export const getJwtSecretUpdateStatus = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/config/secrets/update-status', { params: { ref }, signal })

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
