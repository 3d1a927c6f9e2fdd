import type { Caller, TestPlatform } from '../harness.js'

/** What database-integrations.test.ts hands each family of cases; filled in its beforeAll (read it inside tests). */
export interface IntegrationProject {
  t: TestPlatform
  ref: string
  orgSlug: string
  /** The `postgres` role's password (the project owner's choice). */
  dbPassword: string
  owner: Caller
  developer: Caller
  readOnly: Caller
}
