/**
 * A compact checker of a JSON answer against an OpenAPI 3.0 schema, for the subset the Management API reference
 * uses: $ref to components, allOf/oneOf/anyOf, type, nullable, enum, properties, required, items and
 * additionalProperties. Formats, lengths and ranges are left out on purpose: the surface check is about shape
 * (required fields, types, enums, nullable), and each route's own test holds its values. oneOf is read as anyOf:
 * the document's oneOf branches overlap (objects without additionalProperties: false) so exactly-one would
 * refuse right answers.
 */
export interface Schema {
  $ref?: string
  type?: string
  nullable?: boolean
  enum?: unknown[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  additionalProperties?: boolean | Schema
  allOf?: Schema[]
  oneOf?: Schema[]
  anyOf?: Schema[]
}

export interface Mismatch {
  field: string
  expected: string
  got: string
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>
  components: { schemas: Record<string, Schema> }
}

const show = (value: unknown): string => {
  const text = value === undefined ? 'nothing' : JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value)

export function checkSchema(doc: OpenApiDocument, schema: Schema, value: unknown, field = '$', seen: string[] = []): Mismatch[] {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '')
    const target = doc.components.schemas[name]
    if (!target) return [{ field, expected: `a schema named ${name} in the document`, got: 'none' }]
    return checkSchema(doc, target, value, field, [...seen, name])
  }
  if (value === null && schema.nullable) return []
  const problems: Mismatch[] = []
  for (const part of schema.allOf ?? []) problems.push(...checkSchema(doc, part, value, field, seen))
  const alternatives = schema.oneOf ?? schema.anyOf
  if (alternatives) {
    const results = alternatives.map((part) => checkSchema(doc, part, value, field, seen))
    if (!results.some((result) => result.length === 0)) {
      // The closest branch says most about what is wrong.
      const closest = results.reduce((best, result) => (result.length < best.length ? result : best))
      problems.push(...closest.map((p) => ({ ...p, expected: `${p.expected} (closest of ${alternatives.length} alternatives)` })))
    }
  }
  if (schema.enum && !schema.enum.some((allowed) => allowed === value)) {
    problems.push({ field, expected: `one of ${show(schema.enum)}`, got: show(value) })
    return problems
  }
  if (schema.type) {
    const actual = typeOf(value)
    const fits = schema.type === actual || (schema.type === 'number' && actual === 'integer')
    if (!fits) {
      problems.push({ field, expected: schema.type + (schema.nullable ? ' or null' : ''), got: `${actual} ${show(value)}` })
      return problems
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    for (const name of schema.required ?? []) {
      if (!(name in record)) problems.push({ field: `${field}.${name}`, expected: `required (${describe(doc, schema.properties?.[name])})`, got: 'missing' })
    }
    for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) {
      if (name in record && record[name] !== undefined) problems.push(...checkSchema(doc, propertySchema, record[name], `${field}.${name}`, seen))
    }
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      for (const [name, item] of Object.entries(record)) {
        if (!(name in (schema.properties ?? {}))) problems.push(...checkSchema(doc, schema.additionalProperties, item, `${field}.${name}`, seen))
      }
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, index) => problems.push(...checkSchema(doc, schema.items!, item, `${field}[${index}]`, seen)))
  }
  return problems
}

function describe(doc: OpenApiDocument, schema: Schema | undefined): string {
  if (!schema) return 'any'
  if (schema.$ref) return schema.$ref.replace('#/components/schemas/', '')
  if (schema.enum) return `one of ${show(schema.enum)}`
  return (schema.type ?? 'any') + (schema.nullable ? ' or null' : '')
}

/**
 * The schema of the document's answer for (method, path, status): undefined when the document lists the status
 * without a body, null when it does not list the status at all.
 */
export function responseSchema(doc: OpenApiDocument, method: string, path: string, status: number): Schema | undefined | null {
  const response = doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)]
  if (!response) return null
  return response.content?.['application/json']?.schema
}
