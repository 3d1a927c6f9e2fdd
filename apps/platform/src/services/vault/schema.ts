import type pg from 'pg'

/** Placeholder while the vault schema is written (issue 29). */
export async function ensureVaultSchema(client: pg.Client): Promise<void> {
  void client
}
