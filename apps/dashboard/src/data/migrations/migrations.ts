import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'

/** A recorded migration (supabase_migrations.schema_migrations), as the Management API lists and shows it. */
export type { MigrationDetail, MigrationSummary } from '@stratum/contracts'

export const migrationKeys = {
  all: (ref: string) => ['migrations', ref] as const,
  detail: (ref: string, version: string) => [...migrationKeys.all(ref), version] as const,
}

export const migrationsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: migrationKeys.all(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /v1/projects/{ref}/database/migrations', { params: { ref }, signal }) : skipToken,
  })

export const migrationQuery = (ref: string | undefined, version: string | undefined) =>
  queryOptions({
    queryKey: migrationKeys.detail(ref ?? '', version ?? ''),
    queryFn: ref && version ? ({ signal }) => request('GET /v1/projects/{ref}/database/migrations/{version}', { params: { ref, version }, signal }) : skipToken,
  })

export const useMigrations = (ref: string | undefined) => useQuery(migrationsQuery(ref))
export const useMigration = (ref: string | undefined, version: string | undefined) => useQuery(migrationQuery(ref, version))
