import type { PgMetaColumn, PgMetaPrimaryKey, PgMetaRelationship, PgMetaTable } from '@stratum/contracts'
import { COLUMNS_SQL, CONSTRAINTS_SQL, ENUMS_SQL, RELATIONS_SQL, TABLE_STATS_SQL } from './pg-meta-sql.js'
import type { Queryable } from './queryable.js'

/** Schemas left out unless asked for (pg-meta's DEFAULT_SYSTEM_SCHEMAS). */
export const SYSTEM_SCHEMAS = ['information_schema', 'pg_catalog', 'pg_toast']

export type RelationKind = 'r' | 'p' | 'v' | 'm' | 'f'

/** One relation with everything but its statistics: what the cache keeps between DDL. */
export interface MetaEntity {
  id: number
  schema: string
  name: string
  kind: RelationKind
  comment: string | null
  rls_enabled: boolean
  rls_forced: boolean
  replica_identity: PgMetaTable['replica_identity']
  /** Views only: insert, update and delete are all possible. */
  is_updatable: boolean | null
  /** Materialized views: REFRESH has run. */
  is_populated: boolean
  primary_keys: PgMetaPrimaryKey[]
  relationships: PgMetaRelationship[]
  columns: PgMetaColumn[]
}

export interface SchemaFilter {
  /** Only these schemas (wins over excluded), or null for all but the excluded. */
  included: string[] | null
  excluded: string[]
}

/** pg-meta's filterByList: included schemas win; otherwise system schemas (unless asked) and the excluded ones are left out. */
export function schemaFilter(options: { includedSchemas?: string[]; excludedSchemas?: string[]; includeSystemSchemas?: boolean }): SchemaFilter {
  if (options.includedSchemas?.length) return { included: [...new Set(options.includedSchemas)].sort(), excluded: [] }
  const excluded = new Set([...(options.includeSystemSchemas ? [] : SYSTEM_SCHEMAS), ...(options.excludedSchemas ?? [])])
  return { included: null, excluded: [...excluded].sort() }
}

export function filterKey(filter: SchemaFilter): string {
  return JSON.stringify(filter)
}

interface ColumnRow {
  table_id: string
  ordinal_position: number
  name: string
  default_value: string | null
  data_type: string
  format: string
  identity: string
  generated: string
  is_nullable: boolean
  is_updatable: boolean
  type_id: string
  element_type_id: string
  comment: string | null
}

interface ConstraintRow {
  id: string
  name: string
  type: 'p' | 'u' | 'c' | 'f'
  table_id: string
  table_schema: string
  table_name: string
  target_id: string
  target_schema: string | null
  target_name: string | null
  columns: string[]
  target_columns: string[]
  first_column: number
  column_count: number
  deletion_action: PgMetaRelationship['deletion_action']
  update_action: PgMetaRelationship['update_action']
  check_expression: string | null
}

/**
 * pg-meta shows a check as Postgres prints its definition (pretty), without `CHECK (...)`: `c <> 0`,
 * `a IS NULL OR a >= 0`.
 */
function checkExpression(definition: string): string {
  return /^CHECK \((.*)\)(?: NO INHERIT)?(?: NOT VALID)?$/s.exec(definition)?.[1] ?? definition
}

/**
 * Every relation of the covered schemas with columns, keys and relationships: four queries, assembled
 * here. Run it inside one transaction for a consistent picture.
 */
export async function loadEntities(db: Queryable, filter: SchemaFilter): Promise<MetaEntity[]> {
  const params = [filter.included, filter.excluded]
  const relations = (await db.query({ text: RELATIONS_SQL, values: params })).rows
  const columnRows = (await db.query<ColumnRow>({ text: COLUMNS_SQL, values: params })).rows
  const constraints = (await db.query<ConstraintRow>({ text: CONSTRAINTS_SQL, values: params })).rows
  const enumRows = (await db.query<{ type_id: string; labels: string[] }>(ENUMS_SQL)).rows

  const byId = new Map<number, MetaEntity>()
  const entities: MetaEntity[] = relations.map((row) => {
    const entity: MetaEntity = {
      id: Number(row.id),
      schema: row.schema,
      name: row.name,
      kind: row.kind,
      comment: row.comment,
      rls_enabled: row.rls_enabled,
      rls_forced: row.rls_forced,
      replica_identity: row.replica_identity,
      is_updatable: row.is_updatable,
      is_populated: row.is_populated,
      primary_keys: [],
      relationships: [],
      columns: [],
    }
    byId.set(entity.id, entity)
    return entity
  })

  const uniques = new Set<string>()
  const checks = new Map<string, string>()
  for (const con of constraints) {
    const tableId = Number(con.table_id)
    const source = byId.get(tableId)
    if (con.type === 'p' && source) {
      for (const name of con.columns) source.primary_keys.push({ schema: source.schema, table_name: source.name, name, table_id: tableId })
    } else if (con.type === 'u' && con.column_count === 1) {
      uniques.add(`${tableId}.${con.first_column}`)
    } else if (con.type === 'c' && con.check_expression !== null) {
      const key = `${tableId}.${con.first_column}`
      if (!checks.has(key)) checks.set(key, checkExpression(con.check_expression))
    } else if (con.type === 'f') {
      const target = byId.get(Number(con.target_id))
      // One row per column pair of the key, in key order.
      con.columns.forEach((column, index) => {
        const relationship: PgMetaRelationship = {
          id: Number(con.id),
          constraint_name: con.name,
          source_schema: con.table_schema,
          source_table_name: con.table_name,
          source_column_name: column,
          target_table_schema: con.target_schema!,
          target_table_name: con.target_name!,
          target_column_name: con.target_columns[index]!,
          deletion_action: con.deletion_action,
          update_action: con.update_action,
        }
        source?.relationships.push(relationship)
        if (target && target !== source) target.relationships.push(relationship)
      })
    }
  }

  const enums = new Map(enumRows.map((row) => [Number(row.type_id), row.labels]))
  for (const row of columnRows) {
    const tableId = Number(row.table_id)
    const entity = byId.get(tableId)
    if (!entity) continue
    const key = `${tableId}.${row.ordinal_position}`
    entity.columns.push({
      id: key,
      table_id: tableId,
      schema: entity.schema,
      table: entity.name,
      name: row.name,
      ordinal_position: row.ordinal_position,
      data_type: row.data_type,
      format: row.format,
      default_value: row.default_value,
      is_identity: row.identity === 'a' || row.identity === 'd',
      identity_generation: row.identity === 'a' ? 'ALWAYS' : row.identity === 'd' ? 'BY DEFAULT' : null,
      is_generated: row.generated === 's',
      is_nullable: row.is_nullable,
      is_updatable: row.is_updatable,
      is_unique: uniques.has(key),
      enums: enums.get(Number(row.type_id)) ?? enums.get(Number(row.element_type_id)) ?? [],
      check: checks.get(key) ?? null,
      comment: row.comment,
    })
  }
  return entities
}

export interface TableStats {
  bytes: number
  size: string
  live_rows_estimate: number
  dead_rows_estimate: number
}

/** Sizes and row estimates of the covered tables, by table id. */
export async function loadTableStats(db: Queryable, filter: SchemaFilter): Promise<Map<number, TableStats>> {
  const { rows } = await db.query({ text: TABLE_STATS_SQL, values: [filter.included, filter.excluded] })
  return new Map(
    rows.map((row) => [
      Number(row.id),
      {
        bytes: Number(row.bytes ?? 0),
        size: row.size ?? '0 bytes',
        live_rows_estimate: Number(row.live_rows_estimate),
        dead_rows_estimate: Number(row.dead_rows_estimate),
      },
    ]),
  )
}

const NO_STATS: TableStats = { bytes: 0, size: '0 bytes', live_rows_estimate: 0, dead_rows_estimate: 0 }

/** A table as `GET /platform/pg-meta/{ref}/tables` answers it. */
export function toPgMetaTable(entity: MetaEntity, stats: TableStats | undefined, includeColumns: boolean): PgMetaTable {
  const s = stats ?? NO_STATS
  const table: PgMetaTable = {
    id: entity.id,
    schema: entity.schema,
    name: entity.name,
    rls_enabled: entity.rls_enabled,
    rls_forced: entity.rls_forced,
    replica_identity: entity.replica_identity,
    bytes: s.bytes,
    size: s.size,
    live_rows_estimate: s.live_rows_estimate,
    dead_rows_estimate: s.dead_rows_estimate,
    comment: entity.comment,
    primary_keys: entity.primary_keys,
    relationships: entity.relationships,
  }
  if (includeColumns) table.columns = entity.columns
  return table
}

/** The tables listing: ordinary and partitioned tables (pg-meta lists views and the rest separately). */
export function isTable(entity: MetaEntity): boolean {
  return entity.kind === 'r' || entity.kind === 'p'
}
