import { z } from 'zod'
import { listExtensions } from '../../control/extensions.js'
import { listFunctions, listPolicies, listSchemas } from '../../meta/catalog.js'
import type { PgMetaTable } from '@stratum/contracts'
import { assertActive, metaTarget } from './project-db.js'
import { defineTool } from './types.js'

/**
 * What the assistant's `schema` level may read (and MCP clients too): the project's structure, never
 * its rows. Every member may read it ('projects.read', as the meta routes ask).
 */

const SchemaNames = z.array(z.string().min(1).max(63)).max(100)

export const listSchemasTool = defineTool({
  name: 'list_schemas',
  description: 'Lists the schemas of the project database (Postgres system schemas left out), with their owner and comment.',
  inputSchema: z.object({}),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context) => ({ data: await context.services.meta.read(metaTarget(context), listSchemas) }),
})

/** A table as a model needs it: columns with their types, keys and RLS, without pg-meta's ids and statistics. */
function compactTable(table: PgMetaTable) {
  const outgoing = table.relationships.filter((rel) => rel.source_schema === table.schema && rel.source_table_name === table.name)
  return {
    schema: table.schema,
    name: table.name,
    rls_enabled: table.rls_enabled,
    rls_forced: table.rls_forced,
    rows_estimate: table.live_rows_estimate,
    comment: table.comment,
    columns: (table.columns ?? []).map((column) => ({
      name: column.name,
      type: column.format.startsWith('_') ? `${column.format.slice(1)}[]` : column.format,
      nullable: column.is_nullable,
      default: column.default_value,
      ...(column.is_identity ? { identity: column.identity_generation } : {}),
      ...(column.is_generated ? { generated: true } : {}),
      ...(column.is_unique ? { unique: true } : {}),
      ...(column.enums.length ? { enum_values: column.enums } : {}),
      ...(column.check ? { check: column.check } : {}),
      ...(column.comment ? { comment: column.comment } : {}),
    })),
    primary_key: table.primary_keys.map((key) => key.name),
    foreign_keys: outgoing.map((rel) => ({
      name: rel.constraint_name,
      column: rel.source_column_name,
      references: `${rel.target_table_schema}.${rel.target_table_name}.${rel.target_column_name}`,
    })),
  }
}

export const listTablesTool = defineTool({
  name: 'list_tables',
  description:
    'Lists the tables of the given schemas (public by default) with their columns (type, nullable, default), primary key, foreign keys and whether row level security is enabled.',
  inputSchema: z.object({ schemas: SchemaNames.default(['public']).describe('Schemas to list; public by default') }),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context, input) => {
    const tables = await context.services.meta.listTables(metaTarget(context), { includedSchemas: input.schemas, includeColumns: true })
    return { data: tables.map(compactTable) }
  },
})

export const listFunctionsTool = defineTool({
  name: 'list_functions',
  description:
    'Lists the database functions and procedures users wrote (not those of extensions): schema, name, arguments, return type, language, security definer, volatility.',
  inputSchema: z.object({ schemas: SchemaNames.optional().describe('Only these schemas; all non-system schemas when left out') }),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context, input) => ({ data: await context.services.meta.read(metaTarget(context), (db) => listFunctions(db, input.schemas ?? null)) }),
})

export const listPoliciesTool = defineTool({
  name: 'list_policies',
  description: 'Lists the row level security policies: table, name, permissive or restrictive, command, roles, USING and WITH CHECK expressions.',
  inputSchema: z.object({ schemas: SchemaNames.optional().describe('Only these schemas; all non-system schemas when left out') }),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context, input) => ({ data: await context.services.meta.read(metaTarget(context), (db) => listPolicies(db, input.schemas ?? null)) }),
})

export const listExtensionsTool = defineTool({
  name: 'list_extensions',
  description: 'Lists the Postgres extensions available to the project: name, installed version and schema when enabled, default version, comment.',
  inputSchema: z.object({}),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context) => {
    assertActive(context.project)
    const extensions = await listExtensions(context.platform.projects.adminConnection(context.project))
    return {
      data: extensions.map((extension) => ({
        name: extension.name,
        enabled: extension.installed_version !== null,
        installed_version: extension.installed_version,
        schema: extension.schema,
        default_version: extension.default_version,
        comment: extension.comment,
      })),
    }
  },
})

export const SCHEMA_TOOLS = [listSchemasTool, listTablesTool, listFunctionsTool, listPoliciesTool, listExtensionsTool]
