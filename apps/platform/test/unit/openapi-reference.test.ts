import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MANAGEMENT_SURFACE } from '../../src/http/management-surface.js'
import { API_ROUTES, generateOpenApiDocument, MANAGEMENT_API_REFERENCE, type JsonSchema } from '@stratum/contracts'

/**
 * The document generated from the route map, compared with the Management API's own (docs/reference): every /v1
 * operation the map holds is one of the reference's, takes no body field or query parameter the reference lacks,
 * gives every field the reference requires of a body, and answers at least the fields the reference's answer
 * requires, each of the reference's type.
 */
const reference = JSON.parse(fs.readFileSync(new URL('../../../../docs/reference/management-api-v1.openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, ReferenceOperation>>
  components: { schemas: Record<string, JsonSchema> }
}
interface ReferenceOperation {
  parameters?: { name: string; in: string }[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>
}

/** Properties and required fields of a schema, through $ref, allOf and (as a union) oneOf/anyOf. */
function flatten(schema: JsonSchema | undefined): { type?: string; properties: Record<string, JsonSchema>; required: string[]; items?: JsonSchema } {
  if (!schema) return { properties: {}, required: [] }
  if (typeof schema.$ref === 'string') return flatten(reference.components.schemas[schema.$ref.split('/').at(-1)!])
  const parts = [...((schema.allOf as JsonSchema[]) ?? [])].map(flatten)
  const branches = [...((schema.oneOf as JsonSchema[]) ?? []), ...((schema.anyOf as JsonSchema[]) ?? [])].map(flatten)
  const properties = Object.assign({}, ...parts.map((part) => part.properties), ...branches.map((branch) => branch.properties), schema.properties ?? {})
  const required = [...parts.flatMap((part) => part.required), ...((schema.required as string[]) ?? [])]
  const type = (schema.type as string | undefined) ?? parts.find((part) => part.type)?.type ?? branches.find((branch) => branch.type)?.type
  return { type, properties, required, items: schema.items as JsonSchema | undefined }
}

const typeOf = (schema: JsonSchema | undefined) => {
  const type = flatten(schema).type
  return type === 'integer' ? 'number' : type
}

/** 'Name' for a $ref to a reference schema, 'Name[]' for a list of them. */
function referenceName(schema: JsonSchema | undefined): string | undefined {
  const ref = (schema?.$ref ?? (schema?.items as JsonSchema | undefined)?.$ref) as string | undefined
  if (!ref || !(ref.startsWith('#/components/schemas/') || ref.startsWith(`${MANAGEMENT_API_REFERENCE}#/components/schemas/`))) return undefined
  return ref.split('/').at(-1)! + (schema?.$ref ? '' : '[]')
}

const normalise = (path: string) => path.replace(/\{\w+\}/g, '{}')
const referenceOperation = (path: string, method: string) =>
  Object.entries(reference.paths).find(([candidate]) => normalise(candidate) === normalise(path))?.[1]?.[method]

/** Where the platform knowingly differs from the reference, and why. */
const KNOWN: Record<string, string> = {
  // Fetch sends {} with a JSON content type; the platform accepts that empty body and reads nothing of it.
  'POST /v1/projects/{ref}/readonly/temporary-disable: takes a body': 'an empty body is accepted',
  // Stratum's point-in-time branches (a branch of the project as it was at that moment): the reference has none.
  'POST /v1/projects/{ref}/branches: body field recovery_time_target_unix': 'a branch from a moment',
  // A paused Postgres 15 project may come back on 17 (the dashboard's restore dialog): Stratum's addition.
  'POST /v1/projects/{ref}/restore: takes a body': 'restore onto a newer major',
  // The reference's 200 has no content; the platform answers the configuration as it now is.
  "PATCH /v1/projects/{ref}/config/storage: answers the reference's StorageConfigResponse": 'the updated configuration',
  // The function's files themselves (management-surface.test.ts reads them raw), which the reference types as an empty object.
  'GET /v1/projects/{ref}/functions/{function_slug}/body: answers string': 'the source, not a JSON value',
  // As in management-surface.test.ts: the reference's AuthConfigResponse requires all 231 settings of the hosted auth
  // server; the answer has those of the features Stratum's auth implements.
  "GET /v1/projects/{ref}/config/auth: answer lacks the reference's required field": 'auth features Stratum does not have',
  "PATCH /v1/projects/{ref}/config/auth: answer lacks the reference's required field": 'auth features Stratum does not have',
  // GoTrue's passkey settings (GOTRUE_PASSKEY_ENABLED, GOTRUE_WEBAUTHN_RP_*), which the reference's auth config does not
  // list yet; named as the client suites' config.toml names them.
  'PATCH /v1/projects/{ref}/config/auth: body field passkey_enabled': 'passkeys',
  'PATCH /v1/projects/{ref}/config/auth: body field webauthn_rp_id': 'passkeys',
  'PATCH /v1/projects/{ref}/config/auth: body field webauthn_rp_display_name': 'passkeys',
  'PATCH /v1/projects/{ref}/config/auth: body field webauthn_rp_origins': 'passkeys',
}

/** Answers without a schema: the logs' rows, whose columns are those of the query sent. */
const UNSCHEMED_ANSWERS = ['GET /v1/projects/{ref}/analytics/endpoints/logs.all']

/** The known differences met: one that meets nothing any more must leave the list. */
const used = new Set<string>()

function compare(path: string, method: string, ours: ReturnType<typeof generateOpenApiDocument>['paths'][string][string]): string[] {
  const at = `${method.toUpperCase()} ${path}`
  const theirs = referenceOperation(path, method)
  if (!theirs) return [`${at}: not an operation of the reference`]
  const problems: string[] = []
  const theirQuery = new Set((theirs.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name))
  for (const parameter of ours.parameters.filter((p) => p.in === 'query')) {
    if (!theirQuery.has(parameter.name)) problems.push(`${at}: query parameter ${parameter.name} is not the reference's`)
  }
  const theirBody = flatten(theirs.requestBody?.content?.['application/json']?.schema)
  const ourBody = flatten(ours.requestBody?.content['application/json'].schema)
  if (ours.requestBody && !theirs.requestBody) problems.push(`${at}: takes a body the reference does not`)
  if (ours.requestBody && theirs.requestBody) {
    if (typeOf(ours.requestBody.content['application/json'].schema) !== typeOf(theirs.requestBody.content?.['application/json']?.schema)) {
      problems.push(`${at}: body is ${ourBody.type}, the reference's ${theirBody.type}`)
    }
    const ourFields = ourBody.type === 'array' ? flatten(ourBody.items) : ourBody
    const theirFields = theirBody.type === 'array' ? flatten(theirBody.items) : theirBody
    for (const field of Object.keys(ourFields.properties)) {
      if (!(field in theirFields.properties)) problems.push(`${at}: body field ${field} is not the reference's`)
    }
    for (const field of theirFields.required) {
      if (!(field in ourFields.properties)) problems.push(`${at}: body lacks the reference's required field ${field}`)
    }
  }
  const success = Object.entries(theirs.responses ?? {}).find(([code]) => code.startsWith('2'))?.[1]
  const theirAnswer = success?.content?.['application/json']?.schema
  const ourAnswer = ours.responses['2XX']!.content?.['application/json'].schema
  // An answer declared in one of the reference's schemas (typed by supabase-management-js): it must be this operation's.
  const linked = referenceName(ourAnswer)
  if (linked) {
    const expected = referenceName(theirAnswer)
    if (linked !== expected) problems.push(`${at}: answers the reference's ${linked}, the operation's is ${expected ?? 'none'}`)
    return problems.filter((problem) => !Object.keys(KNOWN).some((known) => problem.startsWith(known) && used.add(known)))
  }
  // An answer typed by an interface of ours (answer<T>()) has no run-time schema to compare.
  if (theirAnswer && ourAnswer && Object.keys(ourAnswer).length > 0) {
    const theirShape = flatten(theirAnswer)
    const ourShape = flatten(ourAnswer)
    if (typeOf(ourAnswer) !== typeOf(theirAnswer)) problems.push(`${at}: answers ${ourShape.type}, the reference ${theirShape.type}`)
    const theirFields = theirShape.type === 'array' ? flatten(theirShape.items) : theirShape
    const ourFields = ourShape.type === 'array' ? flatten(ourShape.items) : ourShape
    for (const field of theirFields.required) {
      if (!(field in ourFields.properties)) problems.push(`${at}: answer lacks the reference's required field ${field}`)
      else if (typeOf(ourFields.properties[field]) && typeOf(theirFields.properties[field]) && typeOf(ourFields.properties[field]) !== typeOf(theirFields.properties[field])) {
        problems.push(`${at}: answer field ${field} is ${typeOf(ourFields.properties[field])}, the reference's ${typeOf(theirFields.properties[field])}`)
      }
    }
  }
  return problems.filter((problem) => !Object.keys(KNOWN).some((known) => problem.startsWith(known) && used.add(known)))
}

describe('the OpenAPI document generated from the route map', () => {
  const document = generateOpenApiDocument()

  it('documents every route of the map, with its path parameters, query, body and answer', () => {
    expect(Object.values(document.paths).reduce((count, methods) => count + Object.keys(methods).length, 0)).toBe(Object.keys(API_ROUTES).length)
    const project = document.paths['/platform/projects']!
    expect(project.post!.requestBody).toMatchObject({ required: true, content: { 'application/json': { schema: { type: 'object', required: expect.arrayContaining(['name']) } } } })
    expect(project.get!.parameters).toEqual([{ name: 'organization_slug', in: 'query', required: false, schema: { type: 'string' } }])
    const object = document.paths['/platform/storage/{ref}/objects/{bucket}/{path}']!
    expect(object.get!.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:ref', 'path:bucket', 'path:path'])
  })

  it('agrees with the Management API reference on every /v1 operation it holds', () => {
    const v1 = Object.entries(document.paths).filter(([path]) => path.startsWith('/v1/'))
    // Not vacuous: every /v1 operation the platform claims (management-surface.ts) is in the map, and all but these
    // answers are compared.
    expect(MANAGEMENT_SURFACE.map(({ method, path }) => `${method} ${path}`).filter((key) => !(key in API_ROUTES))).toEqual([])
    const unschemed = v1.flatMap(([path, methods]) =>
      Object.entries(methods).filter(([, operation]) => Object.keys(operation.responses['2XX']!.content?.['application/json'].schema ?? {}).length === 0).map(([method]) => `${method.toUpperCase()} ${path}`),
    )
    expect(unschemed.sort()).toEqual(UNSCHEMED_ANSWERS)
    const problems = v1
      .flatMap(([path, methods]) => Object.entries(methods).flatMap(([method, operation]) => compare(path, method, operation)))
    expect(problems).toEqual([])
    expect(Object.keys(KNOWN).filter((known) => !used.has(known))).toEqual([])
  })
})
