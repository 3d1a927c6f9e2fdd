import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { AuthUsersPage } from '@stratum/contracts'
import { api } from '../api'
import { projectAuthKeys } from './keys'

export const AUTH_USERS_PER_PAGE = 50

export const authUsersQuery = (ref: string, keywords: string, page: number) =>
  queryOptions({
    queryKey: projectAuthKeys.users(ref, keywords, page),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ page: String(page), per_page: String(AUTH_USERS_PER_PAGE), ...(keywords ? { keywords } : {}) })
      return api<AuthUsersPage>(`/platform/auth/${encodeURIComponent(ref)}/users?${query}`, { signal })
    },
    placeholderData: keepPreviousData,
  })

/** One page of the project's end users, newest first, optionally filtered by email, phone or name. */
export function useAuthUsers(ref: string, keywords: string, page: number) {
  return useQuery(authUsersQuery(ref, keywords, page))
}
