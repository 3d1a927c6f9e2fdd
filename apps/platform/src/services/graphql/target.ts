import type { JWTPayload } from 'jose'
import type { ProjectLogin } from '../../control/project-connections.js'

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
