import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { api } from '../api'

/** One recorded migration (supabase_migrations.schema_migrations), as the Management API lists it. */
export interface MigrationSummary {
  version: string
  name?: string
}

export interface MigrationDetail extends MigrationSummary {
  statements: string[]
  rollback?: string[]
  created_by?: string
}

export const migrationKeys = {
  all: (ref: string) => ['migrations', ref] as const,
  detail: (ref: string, version: string) => [...migrationKeys.all(ref), version] as const,
}

const base = (ref: string) => `/v1/projects/${encodeURIComponent(ref)}/database/migrations`

export const migrationsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: migrationKeys.all(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<MigrationSummary[]>(base(ref), { signal }) : skipToken,
  })

export const migrationQuery = (ref: string | undefined, version: string | undefined) =>
  queryOptions({
    queryKey: migrationKeys.detail(ref ?? '', version ?? ''),
    queryFn: ref && version ? ({ signal }) => api<MigrationDetail>(`${base(ref)}/${encodeURIComponent(version)}`, { signal }) : skipToken,
  })

export const useMigrations = (ref: string | undefined) => useQuery(migrationsQuery(ref))
export const useMigration = (ref: string | undefined, version: string | undefined) => useQuery(migrationQuery(ref, version))
