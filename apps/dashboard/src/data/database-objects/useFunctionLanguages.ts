import { skipToken, useQuery } from '@tanstack/react-query'
import { readCatalog } from '../table-editor/runEditorSql'
import { databaseObjectKeys } from './keys'

/** The trusted procedural languages installed in the database (sql, plpgsql, ...): those a non-superuser may write in. */
const TRUSTED_LANGUAGES_QUERY = `SELECT coalesce(json_agg(lanname ORDER BY lanname), '[]') AS data
FROM pg_catalog.pg_language WHERE lanpltrusted AND lanname <> 'internal'`

export function useFunctionLanguages(ref: string | undefined) {
  return useQuery({
    queryKey: databaseObjectKeys.languages(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<string[]>(ref, TRUSTED_LANGUAGES_QUERY, signal) : skipToken,
    staleTime: 60_000,
  })
}
