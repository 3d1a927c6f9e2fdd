import { useQuery, skipToken } from '@tanstack/react-query'
import { request } from '../request'
import { databaseObjectKeys } from './keys'

/** The publication Supabase Realtime streams changes from. */
export const REALTIME_PUBLICATION_NAME = 'supabase_realtime'

/**
 * The ids of the tables in supabase_realtime (every table when it is FOR ALL TABLES: `all`), from the publications
 * listing.
 */
export function useRealtimeTableIds(ref: string | undefined) {
  return useQuery({
    queryKey: databaseObjectKeys.publications(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /platform/pg-meta/{ref}/publications', { params: { ref }, signal }) : skipToken,
    select: (publications): Set<number> | 'all' | null => {
      const realtime = publications.find((publication) => publication.name === REALTIME_PUBLICATION_NAME)
      if (!realtime) return null
      return realtime.tables === null ? 'all' : new Set(realtime.tables.map((table) => table.id))
    },
  })
}
