import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { projectAuthKeys } from './keys'

export const AUTH_USERS_PER_PAGE = 50

export const authUsersQuery = (ref: string, keywords: string, page: number) =>
  queryOptions({
    queryKey: projectAuthKeys.users(ref, keywords, page),
    queryFn: ({ signal }) =>
      request('GET /platform/auth/{ref}/users', { params: { ref }, query: { page, per_page: AUTH_USERS_PER_PAGE, keywords: keywords || undefined }, signal }),
    placeholderData: keepPreviousData,
  })

/** One page of the project's end users, newest first, optionally filtered by email, phone or name. */
export function useAuthUsers(ref: string, keywords: string, page: number) {
  return useQuery(authUsersQuery(ref, keywords, page))
}
