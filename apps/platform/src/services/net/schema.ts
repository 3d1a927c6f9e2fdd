import type pg from 'pg'

/** Placeholder while the net schema is written (issue 29). */
export async function ensureNetSchema(client: pg.Client): Promise<void> {
  void client
}
