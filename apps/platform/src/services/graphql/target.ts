import type { JWTPayload } from 'jose'
import { AUTHENTICATOR_ROLE } from '../../control/bootstrap-roles.js'
import type { ProjectLogin } from '../../control/project-connections.js'
import type { GatewayProject } from '../../gateway/project-directory.js'

/** The roles a GraphQL request may run as (the verified JWT's `role`); anything else is refused with 401 at the gateway. */
export const GRAPHQL_ROLES = new Set(['anon', 'authenticated', 'service_role'])

/**
 * What the gateway hands the GraphQL service for one request, after the key check: which project
 * database to reach (as `authenticator`, the role PostgREST uses too) and the role and claims to run as.
 */
export interface GraphqlTarget {
  ref: string
  /** The project's instance, as `authenticator`. */
  login: ProjectLogin
  /** anon, authenticated or service_role (from the verified JWT's `role` claim). */
  role: string
  /** The verified JWT's claims: set as `request.jwt.claims` so auth.uid() and RLS policies work. */
  claims: JWTPayload
  /** The project's exposed schemas (PostgREST config `db_schema`, default ['public']). */
  schemas: string[]
}

/** The target of a request whose JWT verified with an allowed role (GRAPHQL_ROLES); null for any other claims. */
export function graphqlTarget(project: GatewayProject, claims: JWTPayload | null): GraphqlTarget | null {
  if (!claims || !GRAPHQL_ROLES.has(String(claims.role))) return null
  return {
    ref: project.ref,
    login: { port: project.port, user: AUTHENTICATOR_ROLE, password: project.authenticatorPassword },
    role: String(claims.role),
    claims,
    schemas: project.settings.db_schema.split(',').map((name) => name.trim()).filter(Boolean),
  }
}
