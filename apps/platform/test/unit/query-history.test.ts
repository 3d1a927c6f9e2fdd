import { describe, expect, it } from 'vitest'
import { QueryHistory } from '../../src/sql-runner/history.js'
import type { Db } from '../../src/store/db.js'

/** A platform database whose statements answer only when the test says so. */
function heldDb() {
  const held: Array<{ text: string; answer: () => void }> = []
  const db = {
    query(config: { name?: string; text: string }) {
      return new Promise((resolve) => held.push({ text: config.text, answer: () => resolve({ rows: [{ id: String(held.length) }] }) }))
    },
  } as unknown as Db
  return { db, held }
}

const quietLog = { error() {} }
const run = (n: number) => ({ projectRef: 'abcdefghijklmnopqrst', userId: 'u', query: `select ${n}` })

describe('QueryHistory (issue 32: the answer does not wait for its entry)', () => {
  it('lets answers go while entries are inserted, and asks them to wait only once 64 inserts are in flight', async () => {
    const { db, held } = heldDb()
    const history = new QueryHistory(db, quietLog)
    for (let n = 0; n < 63; n++) history.start(run(n)).finish({ durationMs: 1, rowCount: 1 })
    expect(history.backedUp).toBe(false)
    history.start(run(63)).finish({ durationMs: 1, rowCount: 1 })
    expect(history.backedUp).toBe(true)
    for (const statement of held.splice(0)) statement.answer()
    await expect.poll(() => history.backedUp).toBe(false)
  })

  it('has the listing wait for entries still being inserted (settled)', async () => {
    const { db, held } = heldDb()
    const history = new QueryHistory(db, quietLog)
    history.start(run(1)).finish({ durationMs: 1, rowCount: 1 })
    let settled = false
    const listing = history.settled().then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    // The insert answers; then the end of the run is written (an UPDATE), which settled() also waits for.
    held.shift()!.answer()
    await expect.poll(() => held.length).toBe(1)
    expect(held[0]!.text).toContain('UPDATE query_history')
    expect(settled).toBe(false)
    held.shift()!.answer()
    await listing
    expect(settled).toBe(true)
  })
})
