import { createHash } from 'node:crypto'
import { FUNCTION_SECRET_LIMITS, refusedSecretName, type FunctionSecretResponse } from '@stratum/contracts'
import type { SecretBox } from '../../control/secret-box.js'
import { inTransaction, type Db, type Queryable } from '../../store/db.js'
import { invalidInput } from '../../errors.js'

/**
 * A project's edge function secrets (migration 016): sealed with the data-dir key, answered only as
 * SHA-256 digests. The runtime opens them when it starts a function's process.
 */
interface SecretRow {
  name: string
  value_sealed: string
  value_sha256: string
  updated_at: Date
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex')

export async function listSecretDigests(db: Queryable, ref: string): Promise<FunctionSecretResponse[]> {
  const { rows } = await db.query<SecretRow>('SELECT name, value_sha256, updated_at FROM function_secrets WHERE project_ref = $1 ORDER BY name', [ref])
  return rows.map((row) => ({ name: row.name, value: row.value_sha256, updated_at: row.updated_at.toISOString() }))
}

/**
 * The plaintext values, for the function processes' environment only. A secret whose name is refused
 * today (stored before the rule, or written around the API) is not opened: its name is in `ignored`.
 */
export async function openSecrets(db: Queryable, box: SecretBox, ref: string): Promise<{ values: Record<string, string>; ignored: string[] }> {
  const { rows } = await db.query<SecretRow>('SELECT name, value_sealed FROM function_secrets WHERE project_ref = $1', [ref])
  const values: Record<string, string> = {}
  const ignored: string[] = []
  for (const row of rows) {
    if (refusedSecretName(row.name) !== null) ignored.push(row.name)
    else values[row.name] = box.open(row.value_sealed)
  }
  return { values, ignored }
}

/** Creates or replaces; the project keeps at most FUNCTION_SECRET_LIMITS.maxSecrets (checked in the same transaction). */
export async function upsertSecrets(db: Db, box: SecretBox, ref: string, secrets: { name: string; value: string }[]): Promise<void> {
  // A name given twice: the last value wins, as environment variables do.
  const byName = new Map(secrets.map((secret) => [secret.name, secret.value]))
  // The contract refuses these names already; the store does too, whoever calls it.
  for (const name of byName.keys()) {
    const refused = refusedSecretName(name)
    if (refused) throw invalidInput(refused)
  }
  await inTransaction(db, async (tx) => {
    // One writer per project at a time, so the count below stays true.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`function_secrets:${ref}`])
    for (const [name, value] of byName) {
      await tx.query(
        `INSERT INTO function_secrets (project_ref, name, value_sealed, value_sha256) VALUES ($1, $2, $3, $4)
         ON CONFLICT (project_ref, name) DO UPDATE SET value_sealed = $3, value_sha256 = $4, updated_at = now()`,
        [ref, name, box.seal(value), digest(value)],
      )
    }
    const { rows } = await tx.query<{ count: string }>('SELECT count(*) FROM function_secrets WHERE project_ref = $1', [ref])
    if (Number(rows[0]!.count) > FUNCTION_SECRET_LIMITS.maxSecrets) {
      throw invalidInput(`A project holds at most ${FUNCTION_SECRET_LIMITS.maxSecrets} secrets`)
    }
  })
}

export async function deleteSecrets(db: Queryable, ref: string, names: string[]): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM function_secrets WHERE project_ref = $1 AND name = ANY($2::text[])', [ref, names])
  return rowCount ?? 0
}
