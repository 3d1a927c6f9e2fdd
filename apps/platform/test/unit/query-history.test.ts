import { describe, expect, it } from 'vitest'
import { QueryHistory, type HistoryRun } from '../../src/sql-runner/history.js'
import type { Db } from '../../src/store/db.js'

interface Held {
  name?: string
  values?: unknown[]
  answer(): void
  fail(error: Error): void
}

/** A platform database whose statements answer (or fail) only when the test says so. */
function heldDb() {
  const held: Held[] = []
  const db = {
    query(config: { name?: string; values?: unknown[] }) {
      return new Promise((resolve, reject) => held.push({ name: config.name, values: config.values, answer: () => resolve({ rows: [] }), fail: reject }))
    },
  } as unknown as Db
  return { db, held }
}

const quietLog = { error() {} }
const run = (n: number, userId = 'u'): HistoryRun => ({ projectRef: 'abcdefghijklmnopqrst', userId, query: `select ${n}`, ranAt: new Date(), durationMs: 1, rowCount: 1 })
const insertedQueries = (statement: Held | undefined) => statement?.values?.[2]

describe('QueryHistory (issue 32: runs written after their answer, in batches)', () => {
  it('writes the runs recorded meanwhile in one INSERT, in the order they were recorded, and one batch at a time', async () => {
    const { db, held } = heldDb()
    const history = new QueryHistory(db, quietLog)
    void history.record(run(1))
    void history.record(run(2, 'another member'))
    void history.record(run(3))
    // Nothing is sent per run: the batch goes when its delay is up, or at once when the listing asks (settled).
    expect(held).toHaveLength(0)
    const listing = history.settled()
    await expect.poll(() => held.length).toBe(1)
    expect(held[0]!.name).toBe('query-history-record')
    expect(insertedQueries(held[0])).toEqual(['select 1', 'select 2', 'select 3'])
    // A run recorded while the batch is being written goes in the next batch, sent only after this one is written.
    void history.record(run(4))
    const later = history.settled()
    await Promise.resolve()
    expect(held).toHaveLength(1)
    held.shift()!.answer()
    // Then each member's entries past the retention are deleted, once per member of the batch.
    await expect.poll(() => held[0]?.name).toBe('query-history-trim')
    expect(held[0]!.values?.[1]).toEqual(['u', 'another member'])
    held.shift()!.answer()
    await listing
    await expect.poll(() => insertedQueries(held[0])).toEqual(['select 4'])
    held.shift()!.answer()
    await expect.poll(() => held[0]?.name).toBe('query-history-trim')
    held.shift()!.answer()
    await later
  })

  it('has the listing wait until the runs recorded so far are written (settled)', async () => {
    const { db, held } = heldDb()
    const history = new QueryHistory(db, quietLog)
    const written = history.record(run(1))
    let settled = false
    const listing = history.settled().then(() => (settled = true))
    await expect.poll(() => held.length).toBe(1)
    held.shift()!.answer()
    await expect.poll(() => held.length).toBe(1)
    expect(settled).toBe(false)
    held.shift()!.answer()
    await listing
    await written
    expect(settled).toBe(true)
  })

  it('lets answers go while runs are unwritten, and asks them to wait only past 1,000 of them', async () => {
    const { db, held } = heldDb()
    const history = new QueryHistory(db, quietLog)
    for (let n = 0; n < 999; n++) void history.record(run(n, `member-${n % 7}`))
    expect(history.backedUp).toBe(false)
    void history.record(run(999))
    expect(history.backedUp).toBe(true)
    // Two full batches went at once, the second after the first.
    await expect.poll(() => held.length).toBe(1)
    expect((insertedQueries(held[0]) as string[]).length).toBe(500)
    while (history.backedUp) {
      held.shift()?.answer()
      await new Promise((resolve) => setImmediate(resolve))
    }
    await expect.poll(() => history.backedUp).toBe(false)
  })

  it('counts unwritten query text too: a few runs of very large queries back it up', () => {
    const { db } = heldDb()
    const history = new QueryHistory(db, quietLog)
    const large = (n: number): HistoryRun => ({ ...run(n), query: `select '${'x'.repeat(6 * 1024 * 1024)}'` })
    void history.record(large(1))
    void history.record(large(2))
    expect(history.backedUp).toBe(false)
    void history.record(large(3))
    expect(history.backedUp).toBe(true)
  })

  it('writes each run of a failed batch on its own: one run that cannot be written loses no other', async () => {
    const { db, held } = heldDb()
    const errors: object[] = []
    const history = new QueryHistory(db, { error: (details) => errors.push(details) })
    const writes = [history.record(run(1)), history.record(run(2, 'deleted project')), history.record(run(3))]
    const listing = history.settled()
    await expect.poll(() => held.length).toBe(1)
    const foreignKey = () => Object.assign(new Error('insert or update on table "query_history" violates foreign key constraint'), { code: '23503' })
    held.shift()!.fail(foreignKey())
    for (const expected of [['select 1'], ['select 2'], ['select 3']]) {
      await expect.poll(() => insertedQueries(held[0])).toEqual(expected)
      if (expected[0] === 'select 2') held.shift()!.fail(foreignKey())
      else {
        held.shift()!.answer()
        await expect.poll(() => held[0]?.name).toBe('query-history-trim')
        held.shift()!.answer()
      }
    }
    await listing
    await Promise.all(writes)
    expect(errors).toHaveLength(1)
  })

  it('writes each run on its own when a value was refused too (a data exception, SQLSTATE class 22)', async () => {
    const { db, held } = heldDb()
    const history = new QueryHistory(db, quietLog)
    const writes = [history.record(run(1)), history.record(run(2))]
    const listing = history.settled()
    await expect.poll(() => held.length).toBe(1)
    held.shift()!.fail(Object.assign(new Error('unsupported Unicode escape sequence'), { code: '22P05' }))
    await expect.poll(() => insertedQueries(held[0])).toEqual(['select 1'])
    held.shift()!.answer()
    await expect.poll(() => held[0]?.name).toBe('query-history-trim')
    held.shift()!.answer()
    await expect.poll(() => insertedQueries(held[0])).toEqual(['select 2'])
    held.shift()!.answer()
    await expect.poll(() => held[0]?.name).toBe('query-history-trim')
    held.shift()!.answer()
    await listing
    await Promise.all(writes)
  })

  it('logs a batch the database refused for any other reason once, without trying each run', async () => {
    const { db, held } = heldDb()
    const errors: object[] = []
    const history = new QueryHistory(db, { error: (details) => errors.push(details) })
    const writes = [history.record(run(1)), history.record(run(2))]
    const listing = history.settled()
    await expect.poll(() => held.length).toBe(1)
    held.shift()!.fail(new Error('Connection terminated unexpectedly'))
    await listing
    await Promise.all(writes)
    expect(held).toHaveLength(0)
    expect(errors).toEqual([expect.objectContaining({ runs: 2 })])
  })
})
