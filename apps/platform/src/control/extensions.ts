import { DEFAULT_EXTENSION_SCHEMA, type Extension } from '@stratum/contracts'
import pg from 'pg'
import { USER_ROLE, withAdminClient, type AdminConnection } from './bootstrap-roles.js'
import { disableRefusal, extensionVerdicts, refusalMessage } from './extension-policy.js'
import { notFound, invalidInput, forbidden, conflict } from '../errors.js'

/**
 * Enabling and disabling a project's Postgres extensions on the user's behalf, as the platform's
 * superuser, within the deny list of extension-policy.ts.
 *
 * Who ends up owning the extension: a trusted extension (Postgres's own flag) is created under
 * `SET ROLE postgres`, exactly as if the user had run CREATE EXTENSION in the SQL editor, so it
 * belongs to them and they can drop or update it from SQL too. The others need a superuser and
 * belong to the platform's; the user disables them here.
 */

interface CatalogRow {
  name: string
  schema: string | null
  default_version: string | null
  installed_version: string | null
  comment: string | null
  trusted: boolean
  required_schema: string | null
  requires: string[]
  owner: string | null
}

/** One extension as the catalog has it, with what the listing does not show. */
interface CatalogExtension extends Extension {
  requires: string[]
  owner: string | null
}

/** Long enough for a large extension script on a busy machine; a lock held by a user's session fails fast instead. */
const STATEMENT_TIMEOUT = '120s'
const LOCK_TIMEOUT = '10s'

/** Every extension the server ships (pg_available_extensions), enabled or not, with the platform's verdict. */
async function readCatalog(client: pg.Client): Promise<CatalogExtension[]> {
  const { rows } = await client.query<CatalogRow>(`
    SELECT e.name, n.nspname AS schema, e.default_version, x.extversion AS installed_version, e.comment,
           coalesce(v.trusted, false) AS trusted, v.schema::text AS required_schema,
           coalesce(v.requires::text[], '{}') AS requires, x.extowner::regrole::text AS owner
      FROM pg_available_extensions e
      LEFT JOIN pg_extension x ON x.extname = e.name
      LEFT JOIN pg_namespace n ON n.oid = x.extnamespace
      LEFT JOIN pg_available_extension_versions v ON v.name = e.name AND v.version = e.default_version
     ORDER BY e.name`)
  const verdicts = extensionVerdicts(new Map(rows.map((row) => [row.name, row.requires])))
  return rows.map((row) => ({ ...row, ...verdicts.get(row.name)! }))
}

/** The listing's shape: postgres-meta's fields plus the platform's. */
function toExtension({ requires: _requires, owner: _owner, ...extension }: CatalogExtension): Extension {
  return extension
}

function find(catalog: CatalogExtension[], name: string): CatalogExtension {
  const found = catalog.find((extension) => extension.name === name)
  if (!found) throw notFound(`Extension ${name} is not available on this project's Postgres server`)
  return found
}

/** The extensions CREATE EXTENSION ... CASCADE would create besides `target` (its missing requirements, recursively). */
function missingRequirements(catalog: CatalogExtension[], target: CatalogExtension): CatalogExtension[] {
  const missing = new Map<string, CatalogExtension>()
  const visit = (extension: CatalogExtension) => {
    for (const name of extension.requires) {
      const needed = catalog.find((candidate) => candidate.name === name)
      if (!needed || needed.installed_version || missing.has(name)) continue
      missing.set(name, needed)
      visit(needed)
    }
  }
  visit(target)
  return [...missing.values()]
}

/** Runs statements in one transaction with the platform's timeouts, optionally as the user's role. */
async function inTransaction(client: pg.Client, asUser: boolean, statement: string): Promise<void> {
  await client.query('BEGIN')
  try {
    await client.query(`SET LOCAL statement_timeout = '${STATEMENT_TIMEOUT}'`)
    await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`)
    if (asUser) await client.query(`SET LOCAL ROLE ${client.escapeIdentifier(USER_ROLE)}`)
    await client.query(statement)
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    if (error instanceof pg.DatabaseError) {
      // Postgres's own refusal (a required extension missing, dependent objects, an unknown
      // version, a library the host lacks): its message is the answer, and a hint when it has one.
      throw invalidInput(error.hint ? `${error.message}. ${error.hint}` : error.message)
    }
    throw error
  }
}

/** Where the extension goes: the schema its control file fixes, else the one asked for (it must exist and be the user's to create in). */
async function targetSchema(client: pg.Client, target: CatalogExtension, asked: string | undefined): Promise<string | null> {
  if (target.required_schema) {
    if (asked !== undefined && asked !== target.required_schema) {
      throw invalidInput(`Extension ${target.name} is always installed in schema ${target.required_schema}`)
    }
    return null // CREATE EXTENSION puts it there by itself
  }
  const schema = asked ?? DEFAULT_EXTENSION_SCHEMA
  const { rows } = await client.query<{ can_create: boolean }>(
    `SELECT has_schema_privilege($1, oid, 'CREATE') AS can_create FROM pg_namespace WHERE nspname = $2`,
    [USER_ROLE, schema],
  )
  if (!rows[0]) throw invalidInput(`Schema ${schema} does not exist`)
  // The superuser could write anywhere (pg_catalog, auth): extensions go only where the user may create objects themselves.
  if (!rows[0].can_create) throw invalidInput(`The ${USER_ROLE} role cannot create objects in schema ${schema}: choose a schema of your own`)
  return schema
}

export async function listExtensions(connection: AdminConnection): Promise<Extension[]> {
  return withAdminClient(connection, async (client) => (await readCatalog(client)).map(toExtension))
}

export interface EnableExtensionRequest {
  name: string
  schema?: string
  version?: string
  cascade: boolean
}

/** CREATE EXTENSION on the user's behalf; answers the extension as the listing shows it afterwards. */
export async function enableExtension(connection: AdminConnection, request: EnableExtensionRequest): Promise<Extension> {
  return withAdminClient(connection, async (client) => {
    const catalog = await readCatalog(client)
    const target = find(catalog, request.name)
    if (!target.allowed) throw forbidden(refusalMessage(target.name, target.reason!))
    if (target.installed_version) {
      throw conflict(`Extension ${target.name} is already enabled (version ${target.installed_version} in schema ${target.schema})`)
    }
    const schema = await targetSchema(client, target, request.schema)
    // With CASCADE Postgres also creates what is missing: all of it must be trusted to run as the user.
    const created = request.cascade ? [target, ...missingRequirements(catalog, target)] : [target]
    const asUser = created.every((extension) => extension.trusted)
    const statement = [
      `CREATE EXTENSION ${client.escapeIdentifier(target.name)}`,
      schema ? `SCHEMA ${client.escapeIdentifier(schema)}` : '',
      request.version ? `VERSION ${client.escapeLiteral(request.version)}` : '',
      request.cascade ? 'CASCADE' : '',
    ]
      .filter(Boolean)
      .join(' ')
    await inTransaction(client, asUser, statement)
    return toExtension(find(await readCatalog(client), target.name))
  })
}

/** DROP EXTENSION on the user's behalf; answers the extension as it was (postgres-meta's habit). */
export async function disableExtension(connection: AdminConnection, name: string, cascade: boolean): Promise<Extension> {
  return withAdminClient(connection, async (client) => {
    const target = find(await readCatalog(client), name)
    if (!target.installed_version) throw notFound(`Extension ${name} is not enabled`)
    const refusal = disableRefusal(name)
    if (refusal) throw invalidInput(refusal)
    // The user's own extension is dropped with the user's rights, so CASCADE reaches only what they could drop themselves.
    const asUser = target.owner === USER_ROLE
    await inTransaction(client, asUser, `DROP EXTENSION ${client.escapeIdentifier(name)} ${cascade ? 'CASCADE' : 'RESTRICT'}`)
    return toExtension(target)
  })
}
