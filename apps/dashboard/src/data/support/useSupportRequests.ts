import { useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { supportKeys } from './keys'

export const getSupportRequests = (signal?: AbortSignal) =>
  request('GET /platform/support/requests', { signal })

export function useSupportRequests() {
  return useQuery({ queryKey: supportKeys.requests(), queryFn: ({ signal }) => getSupportRequests(signal) })
}
