import type { ProjectAuthSettings } from '@stratum/contracts'
import type { JWTPayload } from 'jose'
import type { z } from 'zod'
import type { SecretBox } from '../../control/secret-box.js'
import type { GatewayProject } from '../../gateway/project-directory.js'
import type { AuthDatabases } from './database.js'
import { validationFailed } from './errors.js'
import type { AuthOutbox } from './outbox.js'
import type { RateLimiter } from './rate-limit.js'
import type { SessionContext } from './sessions.js'

/** One request to a project's /auth/v1, after the gateway's key check. */
export interface AuthRequest {
  project: GatewayProject
  settings: ProjectAuthSettings
  method: string
  /** Below /auth/v1, without the query: `/signup`, `/admin/users/{id}` ... */
  path: string
  query: URLSearchParams
  body: Record<string, unknown>
  /** The verified claims of the Authorization bearer (or of the apikey when there is none). */
  claims: JWTPayload | null
  ip: string | null
  userAgent: string | null
  /** The project's API URL as clients see it: links and the token issuer start with it. */
  publicBase: string
}

/** What a handler answers; the gateway writes it. */
export interface AuthResponse {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

/** The auth service's long-lived parts, shared by the handlers. */
export interface AuthDeps {
  databases: AuthDatabases
  outbox: AuthOutbox
  limiter: RateLimiter
  /** Seals what the project database must not hold in clear (TOTP secrets). */
  secrets: SecretBox
}

export type Handler = (request: AuthRequest, deps: AuthDeps) => Promise<AuthResponse>

export const ok = (body: unknown, status = 200): AuthResponse => ({ status, body })

/** Parses the body with a zod schema; the first problem becomes a 400 validation_failed. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = issue.path.join('.')
    throw validationFailed(field ? `${field}: ${issue.message}` : issue.message)
  }
  return parsed.data
}

export function sessionContext(request: AuthRequest): SessionContext {
  return {
    keys: request.project,
    jwtSecret: request.project.jwtSecret,
    issuer: `${request.publicBase}/auth/v1`,
    lifetimeSeconds: request.settings.jwt_exp,
    userAgent: request.userAgent,
    ip: request.ip,
  }
}
