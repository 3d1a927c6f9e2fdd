import type pg from 'pg'

/** The prefix of realtime's slots; each owner of a project's stream (changes/project-changes.ts) has its own name. */
export const SLOT_PREFIX = 'stratum_realtime'

/**
 * The slots this process's owners hold for a project: made, or about to be, and not dropped yet. Any other realtime
 * slot of the project's instance is nobody's: left by an earlier platform process (a crash, a kill), by an owner that
 * gave its drop up, or copied with the data directory from the parent of a branch or a restored backup. Such a slot
 * holds WAL back until max_slot_wal_keep_size ends it: the sweeps below drop it first.
 */
const owned = new Map<string, string>()

export function claimSlot(ref: string, slotName: string): void {
  owned.set(slotName, ref)
}

export function disownSlot(slotName: string): void {
  owned.delete(slotName)
}

/**
 * Drops the project's realtime slots nobody owns that no session uses now, one by one (one that a session took
 * meanwhile stays). Run as the superuser when realtime is set up for the project, and on each fresh start of a stream
 * (as the replication role). Resolves with the names dropped.
 */
export async function dropOrphanSlots(client: pg.Client | pg.ClientBase, ref: string): Promise<string[]> {
  const { rows } = await client.query<{ slot_name: string }>(
    `SELECT slot_name FROM pg_catalog.pg_replication_slots WHERE slot_name LIKE '${SLOT_PREFIX}\\_%' AND NOT active`,
  )
  const dropped: string[] = []
  for (const { slot_name: slot } of rows) {
    if (owned.get(slot) === ref) continue
    // A literal, not a parameter: a replication session takes the simple query protocol only.
    const done = await client.query(`SELECT pg_catalog.pg_drop_replication_slot(${client.escapeLiteral(slot)})`).then(
      () => true,
      () => false,
    )
    if (done) dropped.push(slot)
  }
  return dropped
}
