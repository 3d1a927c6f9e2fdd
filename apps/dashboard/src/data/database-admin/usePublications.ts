import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { databaseAdminKeys } from './keys'

export const publicationsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseAdminKeys.publications(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /platform/pg-meta/{ref}/publications', { params: { ref }, signal }) : skipToken,
  })

/** The project's publications with their events and tables. */
export const usePublications = (ref: string | undefined) => useQuery(publicationsQuery(ref))
