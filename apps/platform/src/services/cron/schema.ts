import type pg from 'pg'

/** Placeholder while the cron schema is written (issue 29). */
export async function ensureCronSchema(client: pg.Client): Promise<void> {
  void client
}
