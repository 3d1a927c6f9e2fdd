import { quoteLiteral } from '@stratum/sql'

/**
 * The SQL the Vault page runs through the SQL editor's route (Supabase Studio does the same through pg-meta's query):
 * the list on the read-only connection (names and dates, never a value), everything else on the full one, which the
 * server refuses to a member without the permission to write. Every value is quoted here: names and secrets are the
 * user's text.
 */

/** A secret as the page lists it: no value (the table holds only ciphertext; revealing asks for it). */
export interface VaultSecret {
  id: string
  name: string | null
  description: string
  created_at: string
  updated_at: string
}

export interface VaultSecretInput {
  name: string
  description: string
  /** Left out on an edit that keeps the value. */
  secret?: string
}

export const LIST_VAULT_SECRETS = `SELECT coalesce(json_agg(json_build_object(
    'id', id, 'name', name, 'description', description, 'created_at', created_at, 'updated_at', updated_at
  ) ORDER BY created_at DESC, id), '[]') AS data
  FROM vault.secrets`

export const revealVaultSecretSql = (id: string) => `SELECT decrypted_secret FROM vault.decrypted_secrets WHERE id = ${quoteLiteral(id)}::uuid`

export const createVaultSecretSql = ({ name, description, secret }: VaultSecretInput) =>
  `SELECT vault.create_secret(${quoteLiteral(secret ?? '')}, ${quoteLiteral(name)}, ${quoteLiteral(description)}) AS id`

export const updateVaultSecretSql = (id: string, { name, description, secret }: VaultSecretInput) =>
  `SELECT vault.update_secret(${quoteLiteral(id)}::uuid, ${secret === undefined ? 'NULL' : quoteLiteral(secret)}, ${quoteLiteral(name)}, ${quoteLiteral(description)})`

export const deleteVaultSecretSql = (id: string) => `DELETE FROM vault.secrets WHERE id = ${quoteLiteral(id)}::uuid`
