import { EDITOR_CHOICES_QUERY, entitiesQuery, REALTIME_TABLES_QUERY, relationQuery, SCHEMAS_QUERY } from '@stratum/sql'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { tableEditorKeys } from './keys'
import { readCatalog } from './runEditorSql'
import type { EditorChoices, EditorEntity, EditorRelation, RealtimeTable } from './types'

export const schemasQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: tableEditorKeys.schemas(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<string[]>(ref, SCHEMAS_QUERY, signal) : skipToken,
    staleTime: 30_000,
  })

export const entitiesListQuery = (ref: string | undefined, schema: string) =>
  queryOptions({
    queryKey: tableEditorKeys.entities(ref ?? '', schema),
    queryFn: ref ? ({ signal }) => readCatalog<EditorEntity[]>(ref, entitiesQuery(schema), signal) : skipToken,
  })

export const relationDetailsQuery = (ref: string | undefined, id: number | undefined) =>
  queryOptions({
    queryKey: tableEditorKeys.relation(ref ?? '', id ?? 0),
    // No row for an id that no longer exists (an old link, a dropped table, ids renumbered by an upgrade): null, the
    // page's 'Table not found'. Never undefined, which React Query takes for a failed read ("data is undefined").
    queryFn: ref && id ? async ({ signal }) => (await readCatalog<EditorRelation | undefined>(ref, relationQuery(id), signal)) ?? null : skipToken,
  })

export const editorChoicesQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: tableEditorKeys.choices(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<EditorChoices>(ref, EDITOR_CHOICES_QUERY, signal) : skipToken,
    staleTime: 60_000,
  })

/** Schemas of the project database (Postgres's own left out). */
export const useSchemas = (ref: string | undefined) => useQuery(schemasQuery(ref))
/** Tables and views of one schema. */
export const useEntities = (ref: string | undefined, schema: string) => useQuery(entitiesListQuery(ref, schema))
/** One relation with its columns, keys, foreign keys and policies; null when it no longer exists. */
export const useRelation = (ref: string | undefined, id: number | undefined) => useQuery(relationDetailsQuery(ref, id))
/** Enum types and roles, for column types and policies. */
export const useEditorChoices = (ref: string | undefined) => useQuery(editorChoicesQuery(ref))

/** The tables in the supabase_realtime publication (under the table editor's keys: its Realtime switch refreshes them). */
export const useRealtimeTables = (ref: string | undefined) =>
  useQuery({
    queryKey: tableEditorKeys.realtimeTables(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<RealtimeTable[]>(ref, REALTIME_TABLES_QUERY, signal) : skipToken,
  })
