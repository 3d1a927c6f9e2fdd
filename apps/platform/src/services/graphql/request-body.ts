import type { IncomingMessage } from 'node:http'
import { readBodyUpTo } from '../../gateway/proxy.js'
import { unsafeInput } from '../../unsafe-input.js'

/** The largest GraphQL request body read (PostGraphile's bodySizeLimit, kept when the engine was replaced). */
export const MAX_GRAPHQL_BODY_BYTES = 1024 * 1024

/** A request refused before it reaches the engine: the status and GraphQL's error message. */
export class GraphqlInputError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }

  /** GraphQL's error shape ({ errors: [{ message }] }). */
  body(): { errors: { message: string }[] } {
    return { errors: [{ message: this.message }] }
  }
}

const refuse = (message: string, status = 400) => new GraphqlInputError(status, message)

/** A GraphQL-over-HTTP request's parameters, checked: what the engine is handed as the parsed body. */
export interface GraphqlParams {
  query: string
  variables?: Record<string, unknown> | null
  operationName?: string | null
  [other: string]: unknown
}

/**
 * Reads and checks a POST body the way GraphQL-over-HTTP servers' body parsers do (JSON, a form, or
 * `application/graphql` text), but refuses what would break it further in with a 400 in GraphQL's
 * shape: a `query` that is not a string (a number or object made it throw a 500), `variables` that
 * are not an object, an `operationName` that is not a string, a batch (an array: 501 there), NUL
 * characters anywhere, and nesting deeper than the platform accepts. Over MAX_GRAPHQL_BODY_BYTES: 413.
 */
export async function readGraphqlParams(request: IncomingMessage): Promise<GraphqlParams> {
  checkUrl(request.url ?? '')
  const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase()
  if (encoding !== 'identity') throw refuse(`Unsupported content encoding "${encoding}"`, 415)
  const text = await readText(request)
  const type = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  let body: unknown
  if (type === 'application/graphql') body = { query: text }
  else if (type === 'application/x-www-form-urlencoded') body = formFields(text)
  else if (type === 'application/json' || type.endsWith('+json')) body = parseJson(text, 'Body is not valid JSON')
  else body = {}
  return checkedParams(body)
}

function checkUrl(url: string): void {
  const mark = url.indexOf('?')
  if (mark < 0) return
  const query = new URLSearchParams(url.slice(mark + 1))
  for (const [name, value] of query) {
    if (name.includes('\u0000') || value.includes('\u0000')) throw refuse('The query string contains a NUL character (\\u0000), which is not accepted')
  }
}

async function readText(request: IncomingMessage): Promise<string> {
  const body = await readBodyUpTo(request, MAX_GRAPHQL_BODY_BYTES)
  if (body === null) throw refuse(`The request body is larger than ${MAX_GRAPHQL_BODY_BYTES / 1024 / 1024} MB`, 413)
  return body.toString('utf8')
}

function parseJson(text: string, message: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw refuse(message)
  }
}

/** A form body as body-parser's `urlencoded({ extended: false })` reads it: repeated fields become arrays. */
function formFields(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>
  for (const [name, value] of new URLSearchParams(text)) {
    const known = fields[name]
    fields[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value]
  }
  return { ...fields }
}

function checkedParams(body: unknown): GraphqlParams {
  if (body === null || typeof body !== 'object') throw refuse('The body must be a JSON object with a query string')
  if (Array.isArray(body)) throw refuse('Batching queries as an array is not supported: send one query object')
  const problem = unsafeInput(body, 'request body')
  if (problem) throw refuse(problem)
  const params = { ...(body as Record<string, unknown>) }
  if (params.query === undefined || params.query === null || params.query === '') throw refuse('Must provide a query string.')
  if (typeof params.query !== 'string') throw refuse(`query must be a string, not ${kind(params.query)}`)
  let variables = params.variables
  if (typeof variables === 'string') variables = variables === '' ? null : parseJson(variables, 'variables is not valid JSON')
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw refuse(`variables must be an object, not ${kind(variables)}`)
  }
  if (variables && typeof variables === 'object') {
    const nested = unsafeInput(variables, 'variables')
    if (nested) throw refuse(nested)
  }
  const operationName = params.operationName
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw refuse(`operationName must be a string, not ${kind(operationName)}`)
  }
  return { ...params, query: params.query, variables: variables as Record<string, unknown> | null | undefined }
}

const kind = (value: unknown) => (Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`)
