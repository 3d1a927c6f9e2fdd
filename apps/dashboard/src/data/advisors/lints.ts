import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { advisorKeys } from './keys'

/** Every lint of both advisors (security and performance) for a running project, as Supabase Studio reads them. */
export const projectLintsQuery = (ref: string | undefined, enabled = true) =>
  queryOptions({
    queryKey: advisorKeys.lints(ref ?? ''),
    queryFn: ref && enabled ? ({ signal }) => request('GET /platform/projects/{ref}/run-lints', { params: { ref }, signal }) : skipToken,
  })

export function useProjectLints(ref: string | undefined, enabled = true) {
  return useQuery(projectLintsQuery(ref, enabled))
}
