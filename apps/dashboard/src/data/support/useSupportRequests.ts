import { useQuery } from '@tanstack/react-query'
import type { SupportRequest } from '@stratum/contracts'
import { api } from '../api'
import { supportKeys } from './keys'

export const getSupportRequests = (signal?: AbortSignal) =>
  api<SupportRequest[]>('/platform/support/requests', { signal })

export function useSupportRequests() {
  return useQuery({ queryKey: supportKeys.requests(), queryFn: ({ signal }) => getSupportRequests(signal) })
}
