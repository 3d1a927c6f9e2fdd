import { useQuery } from '@tanstack/react-query'
import type { ProjectSettings } from '@stratum/contracts'
import { getProjectSettings } from '../api-keys/useProjectSettings'
import { request } from '../request'
import { projectKeys } from './keys'

/** The REST check gives up after 2 s (the project shell spec's connecting check). */
const REST_CHECK_TIMEOUT_MS = 2_000
/**
 * A REST API that is starting (its first request after an idle stop, a restart, a resize, a new branch) is waited for
 * this long, as the project URL's gateway waits for it: a cold start takes more than 2 s on a busy machine.
 */
const REST_COLD_START_TIMEOUT_MS = 30_000

/** What the connecting check found. */
export interface ProjectReadiness {
  /** The REST API answered. */
  healthy: boolean
  /** When it did not: whether the database itself answers the platform (then the REST API is what is down). */
  databaseAnswers?: boolean
}

async function restAnswers(url: string, anonKey: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  try {
    const timeout = AbortSignal.timeout(timeoutMs)
    const response = await fetch(url, { headers: { apikey: anonKey, authorization: `Bearer ${anonKey}` }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
    return response.ok
  } catch {
    return false
  }
}

/**
 * The spec's connecting check, `GET {api}/rest/v1/` with the anon key and a 2 s timeout (PostgREST answers only once it
 * reaches the database and has loaded its schema), told apart from the database's own state: when the REST API does
 * not answer in time, the platform says whether the database answers. If it does, the REST API is starting and is
 * waited for (no "not answering" screen for a cold start under a Healthy badge); if it still does not answer, the
 * screen blames the REST API, not the database.
 */
export async function getProjectReadiness(ref: string, signal?: AbortSignal): Promise<ProjectReadiness> {
  const settings: ProjectSettings = await getProjectSettings(ref, signal)
  const anonKey = settings.service_api_keys.find((key) => key.tags === 'anon')?.api_key ?? ''
  const url = `${settings.app_config.protocol}://${settings.app_config.endpoint}/rest/v1/`
  if (await restAnswers(url, anonKey, REST_CHECK_TIMEOUT_MS, signal)) return { healthy: true }
  const database = await request('GET /platform/projects/{ref}/database/health', { params: { ref }, signal }).then(
    (answer) => answer.healthy,
    () => false,
  )
  if (!database) return { healthy: false, databaseAnswers: false }
  if (await restAnswers(url, anonKey, REST_COLD_START_TIMEOUT_MS, signal)) return { healthy: true }
  return { healthy: false, databaseAnswers: true }
}

/**
 * Whether the project's REST API answers. Checked when a page opens; while it does not answer,
 * checked again every 4 s (the project shell spec's polling intervals), so the page comes back by itself.
 */
export function useDatabaseHealth(ref: string, enabled: boolean) {
  return useQuery({
    queryKey: [...projectKeys.detail(ref), 'rest-health'],
    queryFn: ({ signal }) => getProjectReadiness(ref, signal),
    enabled,
    staleTime: 30_000,
    refetchInterval: (query) => (query.state.data?.healthy === false ? 4_000 : false),
  })
}
