import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { projectAuthKeys } from './keys'

export const authOutboxQuery = (ref: string) =>
  queryOptions({
    queryKey: projectAuthKeys.outbox(ref),
    queryFn: ({ signal }) => request('GET /platform/projects/{ref}/auth/outbox', { params: { ref }, signal }),
    // New messages arrive while the page is open (a sign-up in another tab): look again now and then.
    refetchInterval: 5_000,
  })

/** The emails and SMS codes the project's auth service sent, newest first. */
export function useAuthOutbox(ref: string, enabled = true) {
  return useQuery({ ...authOutboxQuery(ref), enabled })
}
