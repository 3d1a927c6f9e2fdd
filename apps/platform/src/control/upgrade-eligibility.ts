import fs from 'node:fs'
import type { PostgresMajor } from '@stratum/contracts'
import pg from 'pg'
import { adminConnection, withAdminClient } from './bootstrap-roles.js'
import { postgresBinaries } from './postgres-binaries.js'
import { removedCatalogUses, removedCatalogUseText, type RemovedCatalogUse } from './upgrade-removed-catalog.js'

/** What stops a project's data from moving to a newer major (the Management API's validation_errors kinds). */
export type UpgradeBlocker =
  | { type: 'unsupported_extension'; extension_name: string }
  | { type: 'function_using_obsolete_lang'; schema_name: string; function_name: string; lang_name: string }
  | RemovedCatalogUse

/** The languages every build has: functions in them always move. */
const CORE_LANGUAGES = ['internal', 'c', 'sql', 'plpgsql']

/** Extensions the target major ships (its .control files). */
export function shippedExtensions(major: PostgresMajor): Set<string> {
  const dir = postgresBinaries(major).extensionDir
  return new Set(
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.control'))
      .map((name) => name.slice(0, -'.control'.length)),
  )
}

function withDatabase<T>(port: number, password: string, database: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  return withAdminClient(adminConnection(port, password, database), fn)
}

/**
 * Inspects every database of the running project for what the upgrade (a dump restored into the
 * target major) cannot move: extensions the target does not ship, functions in a language that
 * only such an extension provides, and objects naming system catalog columns or functions the target
 * removed (upgrade-removed-catalog.ts). The operation would fail on them half-way (or leave functions
 * that fail when called); the eligibility check says so first, naming each.
 */
export async function upgradeBlockers(port: number, adminPassword: string, target: PostgresMajor): Promise<UpgradeBlocker[]> {
  const shipped = shippedExtensions(target)
  const databases = await withDatabase(port, adminPassword, 'postgres', async (client) =>
    (await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datallowconn AND NOT datistemplate ORDER BY 1')).rows.map((row) => row.datname),
  )
  const extensions = new Set<string>()
  const functions: UpgradeBlocker[] = []
  const removedUses: UpgradeBlocker[] = []
  for (const database of databases) {
    await withDatabase(port, adminPassword, database, async (client) => {
      const { rows: [version] } = await client.query<{ server_version_num: string }>('SHOW server_version_num')
      const source = String(Math.floor(Number(version!.server_version_num) / 10_000)) as PostgresMajor
      removedUses.push(...(await removedCatalogUses(client, source, target)))
      for (const { extname } of (await client.query<{ extname: string }>('SELECT extname FROM pg_extension')).rows) {
        if (!shipped.has(extname)) extensions.add(extname)
      }
      // A language comes from an extension (plv8, pltcl...) or is created by hand; either way the target must provide it.
      const { rows } = await client.query<{ schema_name: string; function_name: string; lang_name: string; extension: string | null }>(
        `SELECT n.nspname AS schema_name, p.proname AS function_name, l.lanname AS lang_name, e.extname AS extension
         FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace
         JOIN pg_language l ON l.oid = p.prolang
         LEFT JOIN pg_depend d ON d.classid = 'pg_language'::regclass AND d.objid = l.oid AND d.deptype = 'e'
         LEFT JOIN pg_extension e ON e.oid = d.refobjid
         WHERE l.lanname <> ALL ($1::text[])`,
        [CORE_LANGUAGES],
      )
      for (const row of rows) {
        if (row.extension && shipped.has(row.extension)) continue
        functions.push({ type: 'function_using_obsolete_lang', schema_name: row.schema_name, function_name: row.function_name, lang_name: row.lang_name })
      }
    })
  }
  return [...[...extensions].sort().map((name) => ({ type: 'unsupported_extension' as const, extension_name: name })), ...functions, ...removedUses]
}

/** A blocker as a sentence for people (the upgrade's refusal message). */
export function blockerText(blocker: UpgradeBlocker, target: PostgresMajor): string {
  switch (blocker.type) {
    case 'unsupported_extension':
      return `Postgres ${target} does not ship the extension ${blocker.extension_name}: drop it before upgrading`
    case 'function_using_obsolete_lang':
      return `The function ${blocker.schema_name}.${blocker.function_name} is written in ${blocker.lang_name}, which Postgres ${target} does not provide`
    default:
      return removedCatalogUseText(blocker, target)
  }
}
