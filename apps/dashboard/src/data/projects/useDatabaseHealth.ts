import { useQuery } from '@tanstack/react-query'
import type { ProjectSettings } from '@stratum/contracts'
import { getProjectSettings } from '../api-keys/useProjectSettings'
import { projectKeys } from './keys'

/** The REST check gives up after 2 s (the project shell spec's connecting check). */
const REST_CHECK_TIMEOUT_MS = 2_000

/**
 * Whether the project's REST API answers: `GET {api}/rest/v1/` with the anon key, as the spec's
 * connecting check does (PostgREST answers only once it reaches the database and has loaded its schema).
 */
export async function getRestHealth(ref: string, signal?: AbortSignal): Promise<{ healthy: boolean }> {
  const settings: ProjectSettings = await getProjectSettings(ref, signal)
  const anonKey = settings.service_api_keys.find((key) => key.tags === 'anon')?.api_key ?? ''
  const url = `${settings.app_config.protocol}://${settings.app_config.endpoint}/rest/v1/`
  try {
    const timeout = AbortSignal.timeout(REST_CHECK_TIMEOUT_MS)
    const response = await fetch(url, { headers: { apikey: anonKey, authorization: `Bearer ${anonKey}` }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
    return { healthy: response.ok }
  } catch {
    return { healthy: false }
  }
}

/**
 * Whether the project's REST API answers. Checked when a page opens; while it does not answer,
 * checked again every 4 s (the project shell spec's polling intervals), so the page comes back by itself.
 */
export function useDatabaseHealth(ref: string, enabled: boolean) {
  return useQuery({
    queryKey: [...projectKeys.detail(ref), 'rest-health'],
    queryFn: ({ signal }) => getRestHealth(ref, signal),
    enabled,
    staleTime: 30_000,
    refetchInterval: (query) => (query.state.data?.healthy === false ? 4_000 : false),
  })
}
