import { LOG_QUERY_MAX_WINDOW_MS } from '@stratum/contracts'
import type { Db } from '../../store/db.js'
import { runLogQuery } from './query.js'

export interface KeyPrefixes {
  anon: string | null
  service_role: string | null
}

/**
 * When the anon and service_role keys were last used: a log query over edge_logs in the last 24 hours, by the
 * role and signature prefix the gateway records (the project shell spec's last-used query). It goes through the
 * same translator as the Logs Explorer's queries, so it reads the store exactly as a user's query would; the
 * prefixes are bound there, never pasted into SQL. A rotated key's old prefix no longer matches.
 */
export async function keysLastUsed(db: Db, ref: string, prefixes: KeyPrefixes, now = Date.now()): Promise<KeyPrefixes> {
  const wanted = (['anon', 'service_role'] as const).filter((role) => prefixes[role])
  if (!wanted.length) return { anon: null, service_role: null }
  // Signature prefixes are base64url (checked anyway: the string is read by the log parser).
  if (wanted.some((role) => !/^[A-Za-z0-9_-]+$/.test(prefixes[role]!))) throw new Error('Unexpected signature prefix')
  const pairs = wanted.map((role) => `(metadata.role = '${role}' and metadata.signature_prefix = '${prefixes[role]}')`).join(' or ')
  const answer = await runLogQuery(db, ref, {
    sql: `select metadata.role as role, max(timestamp) as last_used from edge_logs where ${pairs} group by role`,
    iso_timestamp_start: new Date(now - LOG_QUERY_MAX_WINDOW_MS).toISOString(),
    iso_timestamp_end: new Date(now + 1000).toISOString(),
  })
  if (answer.error) throw new Error(`The keys' last-used query failed: ${answer.error}`)
  const found: KeyPrefixes = { anon: null, service_role: null }
  for (const row of answer.result) {
    // Timestamps answer as microseconds since the epoch, as the Logs Explorer's results have them.
    if (row.role === 'anon' || row.role === 'service_role') found[row.role] = new Date(Number(row.last_used) / 1000).toISOString()
  }
  return found
}
