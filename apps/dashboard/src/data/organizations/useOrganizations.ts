import { useQuery } from '@tanstack/react-query'
import type { Organization } from '@stratum/contracts'
import { api } from '../api'
import { organizationKeys } from './keys'

export const getOrganizations = (signal?: AbortSignal) => api<Organization[]>('/platform/organizations', { signal })

export function useOrganizations() {
  return useQuery({ queryKey: organizationKeys.list(), queryFn: ({ signal }) => getOrganizations(signal) })
}
