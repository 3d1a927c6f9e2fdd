import { useQuery } from '@tanstack/react-query'
import { api } from '../api'
import { projectKeys } from './keys'

export const getDatabaseHealth = (ref: string) => api<{ healthy: boolean }>(`/platform/projects/${ref}/database/health`)

/**
 * Whether the project's database answers (the server tries for 2 s). Checked when a page opens;
 * while it does not answer, checked again every 4 s (the project shell spec's polling intervals), so the page comes back by itself.
 */
export function useDatabaseHealth(ref: string, enabled: boolean) {
  return useQuery({
    queryKey: [...projectKeys.detail(ref), 'database-health'],
    queryFn: () => getDatabaseHealth(ref),
    enabled,
    staleTime: 30_000,
    refetchInterval: (query) => (query.state.data?.healthy === false ? 4_000 : false),
  })
}
