/**
 * Postgres extensions of a project database: `GET/POST/DELETE /platform/pg-meta/{ref}/extensions`,
 * in @supabase/postgres-meta's shapes, plus what this platform adds: whether it lets the extension
 * be enabled at all (`allowed`, `reason`: the deny list of apps/platform/src/control/extension-policy.ts).
 */
import { z } from 'zod'
import { ProjectRef } from './common.js'
import { SchemaName } from './meta.js'
export * from './values/extensions.js'

/** Boolean query values are the strings true/false (as postgres-meta's `?cascade=true`). */
const QueryBoolean = (name: string) =>
  z.enum(['true', 'false'], { error: `${name} must be true or false` }).transform((value) => value === 'true')

/**
 * An extension's name as its control file spells it (contrib names are letters, digits, `_` and
 * `-`, e.g. `uuid-ossp`); at most 63 bytes like any Postgres name.
 */
export const ExtensionName = z
  .string({ error: 'Extension name is required' })
  .min(1, 'Extension name cannot be empty')
  .max(63, 'Extension name must be at most 63 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Extension name may only hold letters, digits, _ and -')

/** A version as extension control files write them (`1.3`, `1.10`, `2.0.1-beta`). */
export const ExtensionVersion = z
  .string({ error: 'Extension version must be a string' })
  .min(1, 'Extension version cannot be empty')
  .max(64, 'Extension version must be at most 64 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Extension version may only hold letters, digits, ., _ and -')

/** One row of the listing: every extension the project's Postgres ships, enabled or not. */
export const Extension = z.object({
  name: z.string(),
  /** Where it is installed; null while it is not enabled. */
  schema: z.string().nullable(),
  default_version: z.string().nullable(),
  /** The enabled version; null while it is not enabled. */
  installed_version: z.string().nullable(),
  comment: z.string().nullable(),
  /** False for the platform's deny list: such an extension can be disabled but never enabled. */
  allowed: z.boolean(),
  /** Why it is refused; null when allowed. */
  reason: z.string().nullable(),
  /** Postgres's own flag: a trusted extension can also be created straight from SQL as `postgres`. */
  trusted: z.boolean(),
  /** The schema its control file fixes (languages live in pg_catalog); null when any schema will do. */
  required_schema: z.string().nullable(),
})
export type Extension = z.infer<typeof Extension>

/** POST /platform/pg-meta/{ref}/extensions: postgres-meta's create body. */
export const EnableExtensionBody = z.object({
  name: ExtensionName,
  /** Defaults to the `extensions` schema (or the schema the control file fixes). */
  schema: SchemaName.optional(),
  /** Defaults to the extension's default version. */
  version: ExtensionVersion.optional(),
  /** Also enable the extensions it requires. */
  cascade: z.boolean({ error: 'cascade must be true or false' }).optional().default(false),
})
export type EnableExtensionBody = z.input<typeof EnableExtensionBody>

/** DELETE /platform/pg-meta/{ref}/extensions/{id} (postgres-meta's path). */
export const ExtensionIdParams = z.object({ ref: ProjectRef, id: ExtensionName })

/** DELETE /platform/pg-meta/{ref}/extensions?id=... (the dashboard's call), and `cascade` for both. */
export const DisableExtensionQuery = z.object({
  id: ExtensionName.optional(),
  cascade: QueryBoolean('cascade').optional().default(false),
})

