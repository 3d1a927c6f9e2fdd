import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { readCatalog } from '../table-editor/runEditorSql'
import { request } from '../request'
import { indexStatsQuery } from './catalog-sql'
import { databaseAdminKeys } from './keys'
import type { IndexStats } from './types'

/** A schema's indexes in postgres-meta's shape. */
export const indexesQuery = (ref: string | undefined, schema: string) =>
  queryOptions({
    queryKey: databaseAdminKeys.indexes(ref ?? '', schema),
    queryFn: ref
      ? async ({ signal }) =>
          (await request('GET /platform/pg-meta/{ref}/indexes', { params: { ref }, query: { included_schemas: schema }, signal })).filter(
            (index) => index.schema === schema,
          )
      : skipToken,
  })

/** Size, scans and table name of a schema's indexes (what postgres-meta's shape lacks). */
export const indexStatsListQuery = (ref: string | undefined, schema: string) =>
  queryOptions({
    queryKey: databaseAdminKeys.indexStats(ref ?? '', schema),
    queryFn: ref ? ({ signal }) => readCatalog<IndexStats[]>(ref, indexStatsQuery(schema), signal) : skipToken,
  })

export const useIndexes = (ref: string | undefined, schema: string) => useQuery(indexesQuery(ref, schema))
export const useIndexStats = (ref: string | undefined, schema: string) => useQuery(indexStatsListQuery(ref, schema))
