import type { OpenApiDocument, SwaggerDefinition, SwaggerOperation, SwaggerParameter, SwaggerPathItem, SwaggerProperty } from '@stratum/contracts'
import type { PgrstColumn, PgrstFunction, PgrstParam, PgrstSchema, PgrstTable } from './postgrest-schema.js'

/**
 * The OpenAPI 2.0 document PostgREST answers on `/` (reference/postgrest-openapi-shape.md), built from
 * a PgrstSchema. Conventions reproduced from PostgREST 12.0.2, the version each project's own REST API runs
 * (services/rest; test/server/api-docs-vs-postgrest.test.ts compares the two field by field):
 * empty lists and maps are left out, `required: false` is always written on parameters, type and format
 * come from the Postgres type name, defaults are parsed as PostgREST parses them, and descriptions carry
 * the `Note:` primary-key and foreign-key markers. Keys are sorted by name (PostgREST's order comes from
 * a hash map and carries no meaning).
 */
export const POSTGREST_VERSION = '12.0.2'
const DOCS_URL = 'https://postgrest.org/en/v12.0/api.html'

const JSON_MIME = 'application/json'
const OBJECT_STRIPPED_MIME = 'application/vnd.pgrst.object+json;nulls=stripped'
const OBJECT_MIME = 'application/vnd.pgrst.object+json'
const CSV_MIME = 'text/csv'
export const OPENAPI_MIME = 'application/openapi+json'

export interface OpenApiOptions {
  /** host:port where the REST API answers. */
  host: string
  scheme: 'http' | 'https'
  basePath?: string
}

type SwaggerType = 'string' | 'boolean' | 'integer' | 'number' | 'array'

/** PostgREST's toSwaggerType: json and jsonb have no type, `x[]` is an array, unknown types are strings. */
export function toSwaggerType(pgType: string): SwaggerType | undefined {
  switch (pgType) {
    case 'character varying':
    case 'character':
    case 'text':
      return 'string'
    case 'boolean':
      return 'boolean'
    case 'smallint':
    case 'integer':
    case 'bigint':
      return 'integer'
    case 'numeric':
    case 'real':
    case 'double precision':
      return 'number'
    case 'json':
    case 'jsonb':
      return undefined
    default:
      return pgType.endsWith('[]') ? 'array' : 'string'
  }
}

function arrayItems(pgType: string): { type?: string } | undefined {
  if (toSwaggerType(pgType) !== 'array') return undefined
  const type = toSwaggerType(pgType.slice(0, -2))
  return type ? { type } : {}
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
/** A quote, a backslash or a control character: what a JSON string cannot hold as it is. */
function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x22 || code === 0x5c) return true
  }
  return false
}

/** JSON.parse without the cost of an exception for the common failures. */
function readJson(text: string): unknown {
  const trimmed = text.trim()
  if (JSON_NUMBER.test(trimmed)) return Number(trimmed)
  if (trimmed === 'true') return true
  if (trimmed === 'false') return false
  if (trimmed === 'null') return null
  const first = trimmed[0]
  if (first !== '"' && first !== '[' && first !== '{') return undefined
  try {
    return JSON.parse(trimmed)
  } catch {
    return undefined
  }
}

/**
 * A column default as PostgREST shows it: for string-typed columns the `::type` cast and surrounding
 * quotes are stripped and the rest is read as a JSON string; other defaults are read as JSON as they
 * are (numbers, booleans). What does not read as JSON (nextval(...), '{}'::jsonb) is left out.
 */
export function parseDefault(pgType: string, expression: string): unknown {
  if (toSwaggerType(pgType) !== 'string') return readJson(expression)
  const suffix = `::${pgType}`
  const inner = expression.endsWith(suffix) ? expression.slice(0, -suffix.length).replace(/^'+|'+$/g, '') : expression
  return needsEscape(inner) ? readJson(`"${inner}"`) : inner
}

/** First line as summary, the rest (leading newlines dropped) as description. */
function splitComment(comment: string | null): { summary?: string; rest?: string } {
  if (comment === null) return {}
  const newline = comment.indexOf('\n')
  if (newline < 0) return { summary: comment, rest: '' }
  return { summary: comment.slice(0, newline), rest: comment.slice(newline).replace(/^\n+/, '') }
}

/** Drops undefined values and empty arrays or objects, as PostgREST's serializer does. */
function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue
    if (Array.isArray(v) && v.length === 0 && key !== 'items') continue
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0 && key !== 'items') continue
    out[key] = v
  }
  return out as T
}

function columnProperty(table: PgrstTable, column: PgrstColumn): SwaggerProperty {
  const notes = ['Note:']
  if (table.primaryKey.includes(column.name)) notes.push('This is a Primary Key.<pk/>')
  if (column.foreignKey) {
    const { table: t, column: c } = column.foreignKey
    notes.push(`This is a Foreign Key to \`${t}.${c}\`.<fk table='${t}' column='${c}'/>`)
  }
  const property: SwaggerProperty = { format: column.type }
  const value = column.default === null ? undefined : parseDefault(column.type, column.default)
  if (value !== undefined) property.default = value
  if (notes.length > 1) property.description = (column.description === null ? '' : `${column.description}\n\n`) + notes.join('\n')
  else if (column.description !== null) property.description = column.description
  if (column.enum.length > 0) property.enum = column.enum
  if (column.maxLength !== null) property.maxLength = column.maxLength
  const type = toSwaggerType(column.type)
  if (type) property.type = type
  const items = arrayItems(column.type)
  if (items) property.items = items
  return property
}

function definition(table: PgrstTable): SwaggerDefinition {
  const def: SwaggerDefinition = { type: 'object' }
  if (table.description !== null) def.description = table.description
  if (table.columns.length > 0) {
    def.properties = {}
    for (const column of table.columns) def.properties[column.name] = columnProperty(table, column)
  }
  const required = table.columns.filter((column) => !column.nullable).map((column) => column.name)
  if (required.length > 0) def.required = required
  return def
}

const ref = (target: string) => ({ $ref: `#/parameters/${target}` })
const SHARED_REFS = Object.fromEntries(
  ['select', 'order', 'range', 'rangeUnit', 'offset', 'limit', 'preferCount', 'preferPost', 'preferReturn', 'preferParams'].map((name) => [name, ref(name)]),
)
const READ_REFS = ['select', 'order', 'range', 'rangeUnit', 'offset', 'limit', 'preferCount'].map((name) => SHARED_REFS[name]!)

function tablePathItem(table: PgrstTable): SwaggerPathItem {
  const { summary, rest } = splitComment(table.description)
  const rowFilters = table.columns.map((column) => ref(`rowFilter.${table.name}.${column.name}`))
  const body = ref(`body.${table.name}`)
  const tags = [table.name]
  const op = (parameters: NonNullable<SwaggerOperation['parameters']>, responses: SwaggerOperation['responses']): SwaggerOperation => {
    const operation: SwaggerOperation = { tags, parameters, responses }
    if (summary !== undefined) operation.summary = summary
    if (rest) operation.description = rest
    return operation
  }
  const item: SwaggerPathItem = {
    get: op([...rowFilters, ...READ_REFS], {
      200: { description: 'OK', schema: { items: { $ref: `#/definitions/${table.name}` }, type: 'array' } },
      206: { description: 'Partial Content' },
    }),
  }
  // PostgREST 12.0 writes all three write operations for a relation that supports any of them (a table, a
  // view Postgres can write through), whatever the role's privileges: a role that may only read still sees them.
  if (table.insertable || table.updatable || table.deletable) {
    item.post = op([body, SHARED_REFS.select!, SHARED_REFS.preferPost!], { 201: { description: 'Created' } })
    item.patch = op([...rowFilters, body, SHARED_REFS.preferReturn!], { 204: { description: 'No Content' } })
    item.delete = op([...rowFilters, SHARED_REFS.preferReturn!], { 204: { description: 'No Content' } })
  }
  return item
}

function procProperty(param: PgrstParam): SwaggerProperty {
  return compact({ format: param.type, type: toSwaggerType(param.type), items: arrayItems(param.type) })
}

function procGetParameter(param: PgrstParam): SwaggerParameter {
  if (param.variadic) {
    const element = param.type.endsWith('[]') ? param.type.slice(0, -2) : param.type
    return compact({
      name: param.name,
      required: param.required,
      in: 'query' as const,
      type: toSwaggerType(param.type) ?? 'string',
      items: compact({ format: element, type: toSwaggerType(element) }),
      collectionFormat: 'multi',
    })
  }
  const type = toSwaggerType(param.type)
  return { format: param.type, in: 'query', name: param.name, required: param.required, type: type === undefined || type === 'array' ? 'string' : type }
}

function procPathItem(fn: PgrstFunction): SwaggerPathItem {
  const { summary, rest } = splitComment(fn.description)
  const base = {
    tags: [`(rpc) ${fn.name}`],
    summary,
    description: rest || undefined,
    produces: [JSON_MIME, OBJECT_STRIPPED_MIME, OBJECT_MIME],
    responses: { 200: { description: 'OK' } },
  }
  const args: SwaggerParameter = {
    name: 'args',
    in: 'body',
    required: true,
    schema: compact({
      description: fn.description ?? undefined,
      properties: Object.fromEntries(fn.params.map((param) => [param.name, procProperty(param)])),
      required: fn.params.filter((param) => param.required).map((param) => param.name),
      type: 'object' as const,
    }),
  }
  const item: SwaggerPathItem = { post: compact({ ...base, parameters: [args, SHARED_REFS.preferParams!] }) }
  // PostgREST 12.0 documents GET for every function (volatile ones refuse it when called; 12.2 leaves it out).
  item.get = compact({ ...base, parameters: fn.params.map(procGetParameter) })
  return item
}

const prefer = (values: string[]): SwaggerParameter => ({ name: 'Prefer', description: 'Preference', required: false, enum: values, in: 'header', type: 'string' })
const RETURN = ['return=representation', 'return=minimal', 'return=none']
const paging = (name: string, where: 'query' | 'header'): SwaggerParameter => ({ name, description: 'Limiting and Pagination', required: false, in: where, type: 'string' })

const SHARED_PARAMETERS: Record<string, SwaggerParameter> = {
  preferParams: prefer(['params=single-object']),
  preferReturn: prefer(RETURN),
  preferCount: prefer(['count=none']),
  preferPost: prefer([...RETURN, 'resolution=ignore-duplicates', 'resolution=merge-duplicates']),
  select: { name: 'select', description: 'Filtering Columns', required: false, in: 'query', type: 'string' },
  on_conflict: { name: 'on_conflict', description: 'On Conflict', required: false, in: 'query', type: 'string' },
  order: { name: 'order', description: 'Ordering', required: false, in: 'query', type: 'string' },
  range: paging('Range', 'header'),
  rangeUnit: { ...paging('Range-Unit', 'header'), default: 'items' },
  offset: paging('offset', 'query'),
  limit: paging('limit', 'query'),
}

export function buildOpenApi(schema: PgrstSchema, options: OpenApiOptions): OpenApiDocument {
  const tables = [...schema.tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const info = splitComment(schema.description)

  const paths: Record<string, SwaggerPathItem> = {
    '/': {
      get: {
        tags: ['Introspection'],
        summary: 'OpenAPI description (this document)',
        produces: [OPENAPI_MIME, JSON_MIME],
        responses: { 200: { description: 'OK' } },
      },
    },
  }
  for (const table of tables) paths[`/${table.name}`] = tablePathItem(table)
  for (const fn of schema.functions) paths[`/rpc/${fn.name}`] = procPathItem(fn)

  const parameters: Record<string, SwaggerParameter> = { ...SHARED_PARAMETERS }
  for (const table of tables) {
    parameters[`body.${table.name}`] = { name: table.name, description: table.name, required: false, in: 'body', schema: { $ref: `#/definitions/${table.name}` } }
    for (const column of table.columns) {
      const filter: SwaggerParameter = { format: column.type, name: column.name, required: false, in: 'query', type: 'string' }
      if (column.description !== null) filter.description = column.description
      parameters[`rowFilter.${table.name}.${column.name}`] = filter
    }
  }

  const mimes = [JSON_MIME, OBJECT_STRIPPED_MIME, OBJECT_MIME, CSV_MIME]
  return compact({
    swagger: '2.0' as const,
    info: {
      description: info.rest ?? 'This is a dynamic API generated by PostgREST',
      title: info.summary ?? 'PostgREST API',
      version: POSTGREST_VERSION,
    },
    host: options.host,
    basePath: options.basePath ?? '/',
    schemes: [options.scheme],
    consumes: mimes,
    produces: mimes,
    paths,
    definitions: Object.fromEntries(tables.map((table) => [table.name, definition(table)])),
    parameters,
    externalDocs: { description: 'PostgREST Documentation', url: DOCS_URL },
  })
}
