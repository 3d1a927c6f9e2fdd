import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'

/**
 * CORS as Supabase's gateway answers it: any origin may call a project's API (the keys, not the
 * origin, protect it), so a web page elsewhere can use supabase-js.
 */
const ALLOWED_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS'
const DEFAULT_ALLOWED_HEADERS =
  'authorization,x-client-info,apikey,content-type,accept,accept-profile,content-profile,prefer,range,x-upsert,cache-control,x-supabase-api-version'
const EXPOSED_HEADERS =
  'Content-Range,Content-Location,Content-Profile,Content-Type,Content-Length,ETag,Preference-Applied,Range-Unit,X-Total-Count,X-Supabase-Api-Version,X-Transformations'

export function corsHeaders(request: { headers: IncomingHttpHeaders }): Record<string, string> {
  if (!request.headers.origin) return {}
  return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' }
}

/** Answers a preflight; false when the request is not one. */
export function answerPreflight(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) return false
  const asked = request.headers['access-control-request-headers']
  void reply
    .code(204)
    .headers({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': typeof asked === 'string' && asked ? asked : DEFAULT_ALLOWED_HEADERS,
      'access-control-max-age': '3600',
      vary: 'Origin',
    })
    .send()
  return true
}
