import { z } from 'zod'
import { API_ROUTES, type RouteSchemas } from './routes.js'

/**
 * The OpenAPI 3.0 document of the platform's routes, generated from the route map's schemas (routes.ts): what the
 * server reads and answers is what the document says. Path parameters are strings; a body or query made
 * `.optional()` is not required; answers typed by an interface of our own (answer<T>()) show as any JSON.
 */
export type JsonSchema = Record<string, unknown>

export interface OpenApiParameter {
  name: string
  in: 'path' | 'query'
  required: boolean
  schema: JsonSchema
}

export interface OpenApiOperation {
  operationId: string
  parameters: OpenApiParameter[]
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } }
  responses: Record<string, { description: string; content?: { 'application/json': { schema: JsonSchema } } }>
}

export interface GeneratedOpenApiDocument {
  openapi: '3.0.3'
  info: { title: string; version: string }
  paths: Record<string, Record<string, OpenApiOperation>>
}

/** Where the Management API reference's schemas are, beside this document (docs/reference). */
export const MANAGEMENT_API_REFERENCE = 'management-api-v1.openapi.json'

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as JsonSchema
  // An answer in one of the reference's schemas (routes.ts, reference()) refers to it.
  const component = generated['x-management-api-schema']
  if (typeof component === 'string') {
    const link = { $ref: `${MANAGEMENT_API_REFERENCE}#/components/schemas/${component.replace(/\[\]$/, '')}` }
    return component.endsWith('[]') ? { type: 'array', items: link } : link
  }
  // The document is one JSON value: the per-schema dialect marker has no place inside it.
  delete generated.$schema
  return generated
}

/** The schema of what a body or query may be, and whether it may be left out. */
function partOf(schema: z.ZodType): { schema: JsonSchema; required: boolean } {
  const required = !schema.safeParse(undefined).success
  return { schema: jsonSchema(schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema, 'input'), required }
}

/** 'GET /v1/projects/{ref}' -> 'getV1ProjectsRef': stable, unique, readable. */
function operationIdOf(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean)
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')
}

export function operationOf(key: string, route: RouteSchemas): { method: string; path: string; operation: OpenApiOperation } {
  const [method, rawPath] = key.split(' ') as [string, string]
  // OpenAPI has no "rest of the path" parameter: {...path} is documented as one parameter named path.
  const path = rawPath.replace(/\{\.\.\.(\w+)\}/g, '{$1}')
  const parameters: OpenApiParameter[] = [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({ name: match[1]!, in: 'path', required: true, schema: { type: 'string' } }))
  if (route.query) {
    const query = partOf(route.query)
    const properties = (query.schema.properties ?? {}) as Record<string, JsonSchema>
    const required = new Set((query.schema.required ?? []) as string[])
    for (const [name, schema] of Object.entries(properties)) parameters.push({ name, in: 'query', required: required.has(name), schema })
  }
  const operation: OpenApiOperation = { operationId: operationIdOf(method, rawPath), parameters, responses: {} }
  if (route.body) {
    const body = partOf(route.body)
    operation.requestBody = { required: body.required, content: { 'application/json': { schema: body.schema } } }
  }
  const response = jsonSchema(route.response, 'output')
  operation.responses['2XX'] = { description: 'Success', content: { 'application/json': { schema: response } } }
  return { method: method.toLowerCase(), path, operation }
}

/** The document of every route in the map (or of those `include` keeps). */
export function generateOpenApiDocument(include: (key: string) => boolean = () => true): GeneratedOpenApiDocument {
  const paths: GeneratedOpenApiDocument['paths'] = {}
  for (const [key, route] of Object.entries(API_ROUTES) as [string, RouteSchemas][]) {
    if (!include(key)) continue
    const { method, path, operation } = operationOf(key, route)
    ;(paths[path] ??= {})[method] = operation
  }
  return { openapi: '3.0.3', info: { title: 'Stratum platform API', version: '1' }, paths }
}
