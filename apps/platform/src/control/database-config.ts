import { POSTGRES_CONFIG_NAMES, type PostgresConfig, type PostgresConfigName } from '@stratum/contracts'
import type pg from 'pg'

/** One row of pg_settings, as the checks and the answer need it. */
interface SettingRow {
  name: PostgresConfigName
  setting: string
  unit: string | null
  vartype: 'bool' | 'integer' | 'real' | 'string' | 'enum'
  context: string
  min_val: string | null
  max_val: string | null
  shown: string
  /** The config file holds a new value that only a restart applies (reload done). */
  pending_restart: boolean
}

const MEMORY: Record<string, number> = { B: 1 / 1024, kB: 1, MB: 1024, GB: 1024 ** 2, TB: 1024 ** 3 }
const TIME: Record<string, number> = { us: 0.001, ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 }

/** A value as written by a user ('64MB', '30s', '512') in the setting's own unit ('8kB', 'ms', 's', 'kB'...); null when it cannot be read. */
export function inSettingUnits(value: string, unit: string | null): number | null {
  const match = /^(-?[0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)$/.exec(value.trim())
  if (!match) return null
  const amount = Number(match[1])
  const written = match[2] ?? ''
  if (!written) return amount
  if (!unit) return null
  const unitMatch = /^([0-9]*)([a-zA-Z]+)$/.exec(unit)
  if (!unitMatch) return null
  const factor = Number(unitMatch[1] || '1')
  const table = unitMatch[2]! in MEMORY ? MEMORY : unitMatch[2]! in TIME ? TIME : null
  if (!table || !(written in table)) return null
  return (amount * table[written]!) / (table[unitMatch[2]!]! * factor)
}

export async function readSettings(client: pg.Client, names: readonly string[] = POSTGRES_CONFIG_NAMES): Promise<SettingRow[]> {
  const { rows } = await client.query<SettingRow>(
    `SELECT name, setting, unit, vartype, context, min_val, max_val, current_setting(name) AS shown, pending_restart FROM pg_settings WHERE name = ANY($1::text[])`,
    [names],
  )
  return rows
}

/**
 * The settings as the Management API answers them: numbers without a unit as numbers, booleans as
 * booleans, the rest as Postgres shows them; a stored value that waits for a restart as stored.
 */
export function toPostgresConfig(rows: SettingRow[], stored: Partial<PostgresConfig>): Partial<PostgresConfig> {
  const config: Record<string, unknown> = {}
  for (const row of rows) {
    if (row.pending_restart && row.name in stored) config[row.name] = stored[row.name]
    else if (row.vartype === 'bool') config[row.name] = row.shown === 'on'
    else if (row.vartype === 'integer' && !row.unit) config[row.name] = Number(row.setting)
    else config[row.name] = row.shown
  }
  return config as Partial<PostgresConfig>
}

/**
 * Refuses values the server would refuse at its next start (out of its own min and max, or a unit it
 * does not take): a setting that stops Postgres from starting would take the project down. The limits
 * are the running server's (pg_settings), so they follow its version.
 */
export function checkAgainstCatalog(rows: SettingRow[], update: Partial<PostgresConfig>): string | null {
  const byName = new Map(rows.map((row) => [row.name, row]))
  for (const [name, value] of Object.entries(update)) {
    const row = byName.get(name as PostgresConfigName)
    if (!row || typeof value === 'boolean' || row.vartype === 'enum' || row.vartype === 'string') continue
    const amount = typeof value === 'number' ? value : inSettingUnits(value, row.unit)
    if (amount === null) return `${name} must be a number${row.unit ? ` in a unit of ${row.unit}'s kind` : ''}`
    const min = row.min_val === null ? null : Number(row.min_val)
    const max = row.max_val === null ? null : Number(row.max_val)
    const unit = row.unit ? ` (in units of ${row.unit})` : ''
    if ((min !== null && amount < min) || (max !== null && amount > max)) return `${name} must be between ${row.min_val} and ${row.max_val}${unit}`
  }
  return null
}

/** The changed settings that only a restart applies (context postmaster). */
export function needsRestart(rows: SettingRow[], update: Partial<PostgresConfig>): string[] {
  return rows.filter((row) => row.context === 'postmaster' && row.name in update).map((row) => row.name)
}
