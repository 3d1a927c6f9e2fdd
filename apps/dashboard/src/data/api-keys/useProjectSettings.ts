import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { ProjectSettings } from '@stratum/contracts'
import { request } from '../request'
import { apiKeyKeys } from './keys'

export const getProjectSettings = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/settings', { params: { ref }, signal })

/** The project's API URL and keys; the service_role key and the JWT secret only for roles that may read them. */
export const projectSettingsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: apiKeyKeys.settings(ref ?? ''),
    queryFn: ref ? ({ signal }) => getProjectSettings(ref, signal) : skipToken,
  })

export function useProjectSettings(ref: string | undefined) {
  return useQuery(projectSettingsQuery(ref))
}

/** `${protocol}://${endpoint}`: where the project's API is reached. */
export function projectApiUrl(settings: ProjectSettings): string {
  return `${settings.app_config.protocol}://${settings.app_config.endpoint}`
}

export function apiKeyOf(settings: ProjectSettings | undefined, role: 'anon' | 'service_role'): string | undefined {
  return settings?.service_api_keys.find((key) => key.tags === role)?.api_key
}
