import { describe, expect, it } from 'vitest'
import { QueryHistory } from '../../src/sql-runner/history.js'
import type { Db } from '../../src/store/db.js'

/** A platform database whose statements answer only when the test says so. */
function heldDb() {
  const held: Array<{ text: string; values?: unknown[]; answer: () => void }> = []
  const db = {
    query(config: { name?: string; text: string; values?: unknown[] }) {
      return new Promise((resolve) => held.push({ text: config.text, values: config.values, answer: () => resolve({ rows: [{ id: String(held.length) }] }) }))
    },
  } as unknown as Db
  return { db, held }
}

const quietLog = { error() {} }
const run = (n: number, userId = 'u') => ({ projectRef: 'abcdefghijklmnopqrst', userId, query: `select ${n}` })

describe('QueryHistory (issue 32: the answer does not wait for its entry)', () => {
  it('lets answers go while entries are inserted, and asks them to wait only once 64 inserts are in flight', async () => {
    const { db, held } = heldDb()
    const history = new QueryHistory(db, quietLog)
    // 64 members, each with one run: one member's inserts go one after the other (the next test).
    for (let n = 0; n < 63; n++) history.start(run(n, `member-${n}`)).finish({ durationMs: 1, rowCount: 1 })
    expect(history.backedUp).toBe(false)
    history.start(run(63, 'member-63')).finish({ durationMs: 1, rowCount: 1 })
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

  it("inserts one member's entries in the order their runs began, so the listing's order (the id's) is theirs", async () => {
    const { db, held } = heldDb()
    const history = new QueryHistory(db, quietLog)
    history.start(run(1)).finish({ durationMs: 1, rowCount: 1 })
    history.start(run(2)).finish({ durationMs: 1, rowCount: 1 })
    history.start(run(3, 'another member')).finish({ durationMs: 1, rowCount: 1 })
    const inserted = () => held.filter((statement) => statement.text.includes('INSERT INTO query_history')).map((statement) => statement.values?.[2])
    await Promise.resolve()
    // The second run's insert waits for the first's; another member's does not.
    expect(inserted()).toEqual(['select 1', 'select 3'])
    held.shift()!.answer()
    await expect.poll(inserted).toEqual(['select 3', 'select 2'])
  })
})
