import pg from 'pg'
import { parseSqlTree } from '@stratum/sql/parser'
import { AUTHENTICATOR_ROLE } from '../../control/bootstrap-roles.js'

/**
 * PostgREST's per-role settings (its in-database configuration): `ALTER ROLE authenticator SET pgrst.<key>`,
 * read again on `NOTIFY pgrst, 'reload config'`, and winning over the settings the platform launches it with.
 *
 * Supabase lets `postgres` run that statement (supautils: authenticator is a reserved role whose settings the
 * privileged role may change). Here `postgres` holds no right on authenticator, and must not: ADMIN OPTION on it
 * (what Postgres 16+ wants for ALTER ROLE ... SET) would also let it change the password, LOGIN, memberships and
 * any setting of the login the platform's services use (storage, realtime and GraphQL connect as authenticator),
 * and Postgres 15 would need CREATEROLE, which leads to the host there (bootstrap-roles.ts). So the platform's
 * query path (sql-runner) hands such statements here: an allowed key with a valid value is applied by the
 * platform's superuser with a statement the platform writes itself (never the tenant's text); everything else
 * on authenticator is refused, saying why.
 *
 * Keys are PostgREST 12.0.2's in-database ones (Config/Database.hs dbSettingsNames); its launch settings
 * (db-uri, server-*, db-pool, ...) are not even read from the database.
 */

type Check = (value: string) => string | null

const BOOLEAN_SPELLINGS: Record<string, string> = { true: 'true', on: 'true', yes: 'true', t: 'true', '1': 'true', false: 'false', off: 'false', no: 'false', f: 'false', '0': 'false' }
const oneOf = (...values: string[]): Check => (value) => (values.includes(value) ? value : null)
const matching = (pattern: RegExp, maxLength = 255): Check => (value) => (value.length <= maxLength && pattern.test(value) ? value : null)

/**
 * A value PostgREST cannot read makes it fail at its next start (a config reload keeps the old one), so each
 * key's value is checked the way PostgREST parses it, and booleans are written as PostgREST reads them: it
 * takes `on` for false.
 */
const VALUE: { boolean: Check; count: Check; functionName: Check } = {
  boolean: (value) => BOOLEAN_SPELLINGS[value.toLowerCase()] ?? null,
  count: matching(/^\d{1,9}$/),
  // toQi: `schema.function` or `function`; empty for none.
  functionName: matching(/^([A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?)?$/, 127),
}

/** The keys a project may set, with what PostgREST accepts for each, and what a refusal says. */
const ALLOWED: Record<string, { check: Check; expected: string }> = {
  'pgrst.db_aggregates_enabled': { check: VALUE.boolean, expected: 'true or false' },
  'pgrst.db_plan_enabled': { check: VALUE.boolean, expected: 'true or false' },
  'pgrst.db_prepared_statements': { check: VALUE.boolean, expected: 'true or false' },
  'pgrst.db_tx_end': { check: oneOf('commit', 'commit-allow-override', 'rollback', 'rollback-allow-override'), expected: 'commit, commit-allow-override, rollback or rollback-allow-override' },
  'pgrst.db_max_rows': { check: VALUE.count, expected: 'a number of rows' },
  'pgrst.db_pre_request': { check: VALUE.functionName, expected: 'a function name such as public.check_request' },
  'pgrst.db_root_spec': { check: VALUE.functionName, expected: 'a function name such as public.root' },
  // A string, or a URI when it holds a colon (stringOrUri).
  'pgrst.jwt_aud': { check: (value) => (/^[\x21-\x7e]{0,255}$/.test(value) && (!value.includes(':') || URL.canParse(value)) ? value : null), expected: 'an audience string or URI' },
  // JSPath: .key, ."quoted key" and [index], e.g. .app_metadata.role
  'pgrst.jwt_role_claim_key': { check: matching(/^(\.([A-Za-z0-9_$@]+|"[^"]*")(\[\d{1,6}\])?)+$/), expected: 'a claim path such as .role or ."app_metadata".role' },
  'pgrst.jwt_cache_max_lifetime': { check: VALUE.count, expected: 'a number of seconds' },
  'pgrst.openapi_mode': { check: oneOf('follow-privileges', 'ignore-privileges', 'disabled'), expected: 'follow-privileges, ignore-privileges or disabled' },
  'pgrst.openapi_security_active': { check: VALUE.boolean, expected: 'true or false' },
  'pgrst.raw_media_types': { check: matching(/^([\w.+-]+\/[\w.+*-]+(\s*,\s*[\w.+-]+\/[\w.+*-]+)*)?$/), expected: 'media types separated by commas' },
  'pgrst.server_timing_enabled': { check: VALUE.boolean, expected: 'true or false' },
  'pgrst.server_trace_header': { check: matching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{0,64}$/), expected: 'a header name' },
}

/** PostgREST reads these from the database too, but the platform owns them: why, for the refusal. */
const PLATFORM_OWNED: Record<string, string> = {
  'pgrst.db_schemas': "is set by the platform, from the project's API settings (exposed schemas)",
  'pgrst.db_extra_search_path': "is set by the platform, from the project's API settings (extra search path)",
  'pgrst.db_anon_role': 'is set by the platform: requests without a user token run as anon',
  'pgrst.db_pre_config': "is set by the platform: a pre-config function could set the settings the platform owns",
  'pgrst.jwt_secret': "is set by the platform: it is the project's JWT secret, shared with the gateway, auth, storage and realtime (rotate it in the API settings)",
  'pgrst.jwt_secret_is_base64': "is set by the platform, with the project's JWT secret",
  'pgrst.openapi_server_proxy_uri': "is set by the platform: it is the project's API URL",
}

/** PostgREST's launch settings: the platform starts it with these, and PostgREST never reads them from the database. */
const LAUNCH_SETTINGS = new Set(
  [
    'admin_server_port', 'db_channel', 'db_channel_enabled', 'db_config', 'db_pool', 'db_pool_acquisition_timeout', 'db_pool_max_lifetime',
    'db_pool_max_idletime', 'db_pool_timeout', 'db_pool_automatic_recovery', 'db_uri', 'db_use_legacy_gucs', 'jwt_secret_file', 'log_level',
    'server_cors_allowed_origins', 'server_host', 'server_port', 'server_unix_socket', 'server_unix_socket_mode',
  ].map((key) => `pgrst.${key}`),
)

const ALLOWED_LIST = Object.keys(ALLOWED).join(', ')
const MANAGED = `role "${AUTHENTICATOR_ROLE}" is managed by the platform`

/** What the platform does with one statement: nothing (the session runs it), apply it, or refuse it. */
export type AuthenticatorStatement =
  | null
  | { apply: string; commandTag: string }
  | { refuse: string; hint?: string }

const refuse = (message: string, hint?: string): AuthenticatorStatement => ({ refuse: message, ...(hint ? { hint } : {}) })
const ALLOWED_HINT = `The settings a project may change on ${AUTHENTICATOR_ROLE}: ${ALLOWED_LIST}.`

/** Cheap first look: only a statement naming authenticator is parsed. */
const MENTIONS = new RegExp(AUTHENTICATOR_ROLE, 'i')

/**
 * Reads one statement of a tenant's SQL. Null unless it is an ALTER ROLE of authenticator or a GRANT of
 * authenticator: those the session could not run anyway (permission denied), and here they get the
 * platform's answer instead.
 */
export async function authenticatorStatement(sql: string): Promise<AuthenticatorStatement> {
  if (!MENTIONS.test(sql)) return null
  const parsed = await parseSqlTree(sql)
  // A syntax error, or text that is not one statement: the session runs it and Postgres answers.
  if (!parsed.ok || parsed.stmts.length !== 1) return null
  const [type, node] = Object.entries(parsed.stmts[0]!)[0] ?? []
  if (type === 'AlterRoleSetStmt') return roleSetting(node as AlterRoleSetStmt)
  if (type === 'AlterRoleStmt' && isAuthenticator((node as { role?: RoleSpec }).role)) {
    return refuse(`${MANAGED}: its password, attributes and memberships cannot be changed`, `Only its PostgREST settings can: ALTER ROLE ${AUTHENTICATOR_ROLE} SET pgrst.<setting> TO '<value>'. ${ALLOWED_HINT}`)
  }
  if (type === 'GrantRoleStmt') {
    const granted = ((node as { granted_roles?: Array<{ AccessPriv?: { priv_name?: string } }> }).granted_roles ?? []).map((role) => role.AccessPriv?.priv_name)
    if ((node as { is_grant?: boolean }).is_grant && granted.includes(AUTHENTICATOR_ROLE)) return refuse(`${MANAGED}: membership in it cannot be granted`)
  }
  return null
}

interface RoleSpec {
  roletype?: string
  rolename?: string
}
interface AConst {
  sval?: { sval?: string }
  ival?: { ival?: number }
  fval?: { fval?: string }
  boolval?: { boolval?: boolean }
  isnull?: boolean
}
interface AlterRoleSetStmt {
  role?: RoleSpec
  database?: string
  setstmt?: { kind?: string; name?: string; args?: Array<{ A_Const?: AConst }> }
}

const isAuthenticator = (role: RoleSpec | undefined) => role?.roletype === 'ROLESPEC_CSTRING' && role.rolename === AUTHENTICATOR_ROLE

function roleSetting(node: AlterRoleSetStmt): AuthenticatorStatement {
  if (!isAuthenticator(node.role)) return null
  const set = node.setstmt ?? {}
  const target = `ALTER ROLE ${AUTHENTICATOR_ROLE}${node.database ? ` IN DATABASE ${pg.escapeIdentifier(node.database)}` : ''}`
  if (set.kind === 'VAR_RESET_ALL') {
    return refuse(`${MANAGED}: RESET ALL would reset the platform's settings too`, `Reset the PostgREST settings one at a time: ALTER ROLE ${AUTHENTICATOR_ROLE} RESET pgrst.<setting>.`)
  }
  // Setting names are case-insensitive in Postgres, but PostgREST looks them up as written, in lower case.
  const key = (set.name ?? '').toLowerCase()
  const why = keyRefusal(key)
  if (why) return why
  if (set.kind === 'VAR_RESET' || set.kind === 'VAR_SET_DEFAULT') return { apply: `${target} RESET ${key}`, commandTag: 'ALTER ROLE' }
  if (set.kind !== 'VAR_SET_VALUE') return refuse(`${key} takes a value: ALTER ROLE ${AUTHENTICATOR_ROLE} SET ${key} TO '<value>'`)
  const args = set.args ?? []
  if (args.length !== 1) return refuse(`SET ${key} takes only one argument`)
  const raw = constantText(args[0]!.A_Const)
  const { check, expected } = ALLOWED[key]!
  const value = raw === null ? null : check(raw)
  if (value === null) return refuse(`invalid value for ${key}: ${raw === null ? 'not a constant' : JSON.stringify(raw.slice(0, 100))}; PostgREST expects ${expected}`)
  return { apply: `${target} SET ${key} TO ${pg.escapeLiteral(value)}`, commandTag: 'ALTER ROLE' }
}

/** Why a key may not be set on authenticator, or null when it may. */
function keyRefusal(key: string): AuthenticatorStatement {
  if (ALLOWED[key]) return null
  if (PLATFORM_OWNED[key]) return refuse(`${key} ${PLATFORM_OWNED[key]}`, ALLOWED_HINT)
  if (LAUNCH_SETTINGS.has(key)) return refuse(`${key} is set by the platform: PostgREST reads it only when the platform starts it, never from the database`, ALLOWED_HINT)
  if (key.startsWith('pgrst.')) return refuse(`${key} is not a PostgREST setting that can be read from the database`, ALLOWED_HINT)
  return refuse(`${MANAGED}: only its PostgREST settings (pgrst.*) can be set, not ${key || 'this setting'}`, ALLOWED_HINT)
}

/** The text of a constant as Postgres would store it (libpg_query's JSON leaves zero and false out). */
function constantText(constant: AConst | undefined): string | null {
  if (!constant || constant.isnull) return null
  if (constant.sval) return constant.sval.sval ?? ''
  if (constant.ival) return String(constant.ival.ival ?? 0)
  if (constant.fval) return constant.fval.fval ?? null
  if (constant.boolval) return String(constant.boolval.boolval ?? false)
  return null
}

/** Is this one of the PostgREST settings a project may hold on authenticator, with a value PostgREST reads? */
export function isProjectPostgrestSetting(key: string, value: string): boolean {
  const rule = ALLOWED[key]
  return rule !== undefined && rule.check(value) === value
}
