import { z } from 'zod'

/**
 * Introspection of a project database (`GET /platform/pg-meta/{ref}/tables`) and the PostgREST-shaped
 * OpenAPI document (`GET /platform/projects/{ref}/api/rest`). Field names follow
 * reference/platform-api-shapes.md and reference/postgrest-openapi-shape.md.
 */

/** Boolean query values are the strings true/false (Management API habit). */
export const QueryBoolean = (name: string) =>
  z.enum(['true', 'false'], { error: `${name} must be true or false` }).transform((value) => value === 'true')

export const QueryCount = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a non-negative integer`)
    .transform(Number)

/** Bytes of a string in UTF-8 (Postgres limits identifiers to 63 bytes). */
function utf8Length(text: string): number {
  let bytes = 0
  for (const char of text) {
    const code = char.codePointAt(0)!
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
  }
  return bytes
}

/** A Postgres identifier as a person types it: not empty, at most 63 bytes, no NUL. */
export const SchemaName = z
  .string()
  .min(1, 'Schema names cannot be empty')
  .refine((name) => utf8Length(name) <= 63, 'Schema names must be at most 63 bytes long')
  .refine((name) => !name.includes('\0'), 'Schema names cannot contain NUL characters')

/** List parameters may arrive comma-joined (`a,b`) or repeated (`x=a&x=b`). */
export const SchemaList = (name: string) =>
  z
    .union([z.string(), z.array(z.string())], { error: `${name} must be a comma-separated list of schema names` })
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .map((part) => part.trim())
        .filter((part) => part.length > 0),
    )
    .pipe(z.array(SchemaName).max(100, `${name} may name at most 100 schemas`))

export const PgMetaTablesQuery = z.object({
  include_columns: QueryBoolean('include_columns').default(true),
  include_system_schemas: QueryBoolean('include_system_schemas').default(false),
  included_schemas: SchemaList('included_schemas').optional(),
  excluded_schemas: SchemaList('excluded_schemas').optional(),
  limit: QueryCount('limit').optional(),
  offset: QueryCount('offset').optional(),
})
export type PgMetaTablesQuery = z.output<typeof PgMetaTablesQuery>

export const PgMetaPrimaryKey = z.object({
  schema: z.string(),
  table_name: z.string(),
  name: z.string(),
  table_id: z.number(),
})
export type PgMetaPrimaryKey = z.infer<typeof PgMetaPrimaryKey>

/** pg_constraint.confdeltype / confupdtype: a no action, r restrict, c cascade, n set null, d set default. */
export const ForeignKeyAction = z.enum(['a', 'r', 'c', 'n', 'd'])

export const PgMetaRelationship = z.object({
  id: z.number(),
  constraint_name: z.string(),
  source_schema: z.string(),
  source_table_name: z.string(),
  source_column_name: z.string(),
  target_table_schema: z.string(),
  target_table_name: z.string(),
  target_column_name: z.string(),
  deletion_action: ForeignKeyAction,
  update_action: ForeignKeyAction,
})
export type PgMetaRelationship = z.infer<typeof PgMetaRelationship>

export const PgMetaColumn = z.object({
  /** `<table oid>.<attnum>` */
  id: z.string(),
  table_id: z.number(),
  schema: z.string(),
  table: z.string(),
  name: z.string(),
  ordinal_position: z.number(),
  /** information_schema style: 'integer', 'text', 'ARRAY', 'USER-DEFINED'... */
  data_type: z.string(),
  /** The type's own name: 'int4', 'text', '_text', 'my_enum'... */
  format: z.string(),
  default_value: z.string().nullable(),
  is_identity: z.boolean(),
  identity_generation: z.enum(['ALWAYS', 'BY DEFAULT']).nullable(),
  is_generated: z.boolean(),
  is_nullable: z.boolean(),
  is_updatable: z.boolean(),
  is_unique: z.boolean(),
  enums: z.array(z.string()),
  check: z.string().nullable(),
  comment: z.string().nullable(),
})
export type PgMetaColumn = z.infer<typeof PgMetaColumn>

export const PgMetaTable = z.object({
  id: z.number(),
  schema: z.string(),
  name: z.string(),
  rls_enabled: z.boolean(),
  rls_forced: z.boolean(),
  replica_identity: z.enum(['DEFAULT', 'INDEX', 'FULL', 'NOTHING']),
  bytes: z.number(),
  size: z.string(),
  live_rows_estimate: z.number(),
  dead_rows_estimate: z.number(),
  comment: z.string().nullable(),
  primary_keys: z.array(PgMetaPrimaryKey),
  relationships: z.array(PgMetaRelationship),
  /** Present unless include_columns=false. */
  columns: z.array(PgMetaColumn).optional(),
})
export type PgMetaTable = z.infer<typeof PgMetaTable>
export const PgMetaTablesResponse = z.array(PgMetaTable)

/** The roles a PostgREST document can be asked for: the API roles every instance is bootstrapped with. */
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const
export type ApiRole = (typeof API_ROLES)[number]

export const ApiRestQuery = z.object({
  role: z.enum(API_ROLES, { error: `role must be one of ${API_ROLES.join(', ')}` }).default('anon'),
  schema: SchemaName.default('public'),
})
export type ApiRestQuery = z.output<typeof ApiRestQuery>

// ---- OpenAPI 2.0 as PostgREST writes it ----

export const SwaggerItems: z.ZodType<{ type?: string; format?: string }> = z.object({
  type: z.string().optional(),
  format: z.string().optional(),
})

export const SwaggerProperty = z.object({
  type: z.string().optional(),
  format: z.string(),
  description: z.string().optional(),
  default: z.unknown().optional(),
  enum: z.array(z.unknown()).optional(),
  maxLength: z.number().optional(),
  items: SwaggerItems.optional(),
})
export type SwaggerProperty = z.infer<typeof SwaggerProperty>

export const SwaggerDefinition = z.object({
  type: z.literal('object'),
  description: z.string().optional(),
  properties: z.record(z.string(), SwaggerProperty).optional(),
  required: z.array(z.string()).optional(),
})
export type SwaggerDefinition = z.infer<typeof SwaggerDefinition>

const Ref = z.object({ $ref: z.string() })

export const SwaggerParameter = z.object({
  name: z.string(),
  in: z.enum(['query', 'header', 'body']),
  description: z.string().optional(),
  required: z.boolean().optional(),
  type: z.string().optional(),
  format: z.string().optional(),
  default: z.unknown().optional(),
  enum: z.array(z.string()).optional(),
  items: SwaggerItems.optional(),
  collectionFormat: z.string().optional(),
  schema: z.union([Ref, SwaggerDefinition]).optional(),
})
export type SwaggerParameter = z.infer<typeof SwaggerParameter>

export const SwaggerOperation = z.object({
  tags: z.array(z.string()),
  summary: z.string().optional(),
  description: z.string().optional(),
  produces: z.array(z.string()).optional(),
  parameters: z.array(z.union([Ref, SwaggerParameter])).optional(),
  responses: z.record(z.string(), z.object({ description: z.string(), schema: z.unknown().optional() })),
})
export type SwaggerOperation = z.infer<typeof SwaggerOperation>

export const SwaggerPathItem = z.object({
  get: SwaggerOperation.optional(),
  post: SwaggerOperation.optional(),
  patch: SwaggerOperation.optional(),
  delete: SwaggerOperation.optional(),
})
export type SwaggerPathItem = z.infer<typeof SwaggerPathItem>

export const OpenApiDocument = z.object({
  swagger: z.literal('2.0'),
  info: z.object({ description: z.string(), title: z.string(), version: z.string() }),
  host: z.string(),
  basePath: z.string(),
  schemes: z.array(z.string()),
  consumes: z.array(z.string()),
  produces: z.array(z.string()),
  paths: z.record(z.string(), SwaggerPathItem),
  definitions: z.record(z.string(), SwaggerDefinition).optional(),
  parameters: z.record(z.string(), SwaggerParameter),
  externalDocs: z.object({ description: z.string(), url: z.string() }),
})
export type OpenApiDocument = z.infer<typeof OpenApiDocument>
