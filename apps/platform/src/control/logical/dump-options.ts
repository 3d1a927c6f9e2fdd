export interface DumpOptions {
  /**
   * What to dump: 'all' (default), 'schema' (definitions, no rows) or 'data' (rows only, for a
   * database that already has the schema). Materialized views are refreshed by neither half
   * (pg_dump files that under post-data): after restoring both, REFRESH them.
   */
  section?: 'all' | 'schema' | 'data'
  /**
   * Start the dump with the roles it refers to that a fresh instance lacks (see roles-preamble.ts).
   * Default true, except for data-only dumps, which never create anything.
   */
  includeRoles?: boolean
  /**
   * pg_dump takes ACCESS SHARE locks on every table first; behind a long-held exclusive lock it
   * would wait forever. Fail after this many milliseconds instead (default 60 s).
   */
  lockWaitTimeoutMs?: number
}

/**
 * pg_dump arguments for a plain-SQL dump that restores, with psql or restoreDump, into a fresh
 * instance of the same or a newer major version.
 *
 * Ownership and privileges are KEPT (no --no-owner / --no-acl): the API roles (anon,
 * authenticated, service_role) get their access from GRANTs, row-level security depends on who
 * owns a table, and a user's own roles own objects too. A restored or upgraded project without
 * them would answer its API with "permission denied". The roles those statements name exist in
 * every instance (bootstrap-roles.ts) or are created by the roles preamble (roles-preamble.ts).
 */
export function pgDumpArguments(options: DumpOptions = {}): string[] {
  const args = [
    '--format=plain',
    '--encoding=UTF8',
    // Never prompt: the worker has no terminal, a prompt would hang it.
    '--no-password',
    // Identifiers that become keywords in a newer major still restore (advised for upgrades).
    '--quote-all-identifiers',
    // An instance's tablespaces are directories of that instance; the new one has its own.
    '--no-tablespaces',
    // This pg_dump is version 18; statistics would restore through functions 15 and 17 lack.
    '--no-statistics',
    // The output is a stream, not a file pg_dump could fsync.
    '--no-sync',
    `--lock-wait-timeout=${Math.max(1, Math.round(options.lockWaitTimeoutMs ?? 60_000))}`,
  ]
  if (options.section === 'schema') args.push('--schema-only')
  if (options.section === 'data') {
    // Rows into an existing schema: foreign keys may point either way between tables, and user
    // triggers must not fire a second time for rows they already processed once.
    args.push('--data-only', '--disable-triggers')
  }
  return args
}
