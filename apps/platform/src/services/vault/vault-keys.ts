import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { adminConnection, passwordRejected, withAdminClient } from '../../control/bootstrap-roles.js'
import type { SecretBox } from '../../control/secret-box.js'
import { findProject } from '../../control/project-store.js'
import type { Queryable } from '../../store/db.js'
import { ensureVaultSchema, hasCurrentVaultSchema } from './schema.js'

/**
 * What an instance provider asks the platform for around an instance's start (LocalProviderOptions.keyring). Cloud
 * neutral: the local provider writes the key to a file beside the data directory; another provider would mount it
 * (a Kubernetes Secret) at the same place.
 */
export interface InstanceKeyring {
  /** The project's Vault key: base64 of 32 bytes. */
  vaultKey(ref: string): Promise<string>
  /** After the live instance of `ref` started on `port`: what a project made by an earlier version lacks. */
  started(ref: string, port: number): Promise<void>
}

/**
 * The projects' Vault keys, sealed in the platform database (project_vault_keys), never in a project's database.
 * A project's key is made the first time its instance starts (new projects, and projects made before Vault, at their
 * next start). A branch takes its parent's key, as its data is a copy of the parent's: a PITR restore, a physical
 * restore or an upgrade keep the project's ref and so its key.
 */
export class VaultKeys implements InstanceKeyring {
  constructor(
    private readonly db: Queryable,
    private readonly secrets: SecretBox,
    private readonly log: FastifyBaseLogger,
  ) {}

  async vaultKey(ref: string): Promise<string> {
    const known = await this.sealedKey(ref)
    if (known) return this.secrets.open(known)
    const { rows } = await this.db.query<{ parent: string }>(
      'SELECT parent_project_ref AS parent FROM branches WHERE project_ref = $1 AND NOT is_default',
      [ref],
    )
    const parent = rows[0]?.parent
    const key = parent && parent !== ref ? await this.vaultKey(parent) : randomBytes(32).toString('base64')
    // Two starts at once (never expected) keep the first key stored: a key, once used, never changes.
    await this.db.query('INSERT INTO project_vault_keys (project_ref, key_sealed) VALUES ($1, $2) ON CONFLICT (project_ref) DO NOTHING', [
      ref,
      this.secrets.seal(key),
    ])
    return this.secrets.open((await this.sealedKey(ref))!)
  }

  /**
   * A project made before Vault existed gets the vault schema (schema.ts) at its next start. Never fails the start:
   * a copy that still has another instance's passwords (a branch being made) or an old role model is left alone.
   */
  async started(ref: string, port: number): Promise<void> {
    try {
      const row = await findProject(this.db, ref)
      if (!row?.admin_password_sealed) return
      await withAdminClient(adminConnection(port, this.secrets.open(row.admin_password_sealed)), async (client) => {
        if (!(await hasCurrentVaultSchema(client))) await ensureVaultSchema(client)
      })
    } catch (error) {
      if (!passwordRejected(error)) this.log.warn({ err: error, ref }, 'the vault schema could not be brought up to date')
    }
  }

  private async sealedKey(ref: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ key_sealed: string }>('SELECT key_sealed FROM project_vault_keys WHERE project_ref = $1', [ref])
    return rows[0]?.key_sealed
  }
}
