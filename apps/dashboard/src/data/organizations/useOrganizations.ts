import { useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { organizationKeys } from './keys'

export const getOrganizations = (signal?: AbortSignal) => request('GET /platform/organizations', { signal })

export function useOrganizations() {
  return useQuery({ queryKey: organizationKeys.list(), queryFn: ({ signal }) => getOrganizations(signal) })
}
