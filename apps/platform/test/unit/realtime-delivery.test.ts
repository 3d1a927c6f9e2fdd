import type pg from 'pg'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ProjectChanges, type ChangeListener } from '../../src/services/realtime/changes/project-changes.js'
import { lsnBefore, type CommittedTransaction } from '../../src/services/realtime/changes/stream.js'
import { RealtimeEventLog, type RealtimeEvent } from '../../src/services/realtime/event-log.js'

/*
 * The delivery of committed changes when the project's database fails for a moment (a connection that times out
 * on a busy instance, a statement cancelled): the batch is tried again, delivered once, in order; a batch that
 * keeps failing is given up so later changes still flow. The database is a stand-in pool: this is about the retry.
 */

const log = pino({ level: 'silent' })

/** Answers the relation's catalog read and the visibility check; the check fails `failures` times first. */
function flakyPool(failures: number) {
  const calls = { visibility: 0, failures }
  const pool = {
    query: async (text: string) => {
      if (text.includes('stratum_visible_rows')) {
        calls.visibility++
        if (calls.visibility <= calls.failures) throw new Error('Connection terminated due to connection timeout')
        return { rows: [{ check_index: 0, selectable: ['id', 'name'], visible: [0] }] }
      }
      return { rows: [{ rls: true, primary_key: ['id'], types: { '23': 'int4', '25': 'text' } }] }
    },
  }
  return { pool: pool as unknown as pg.Pool, calls }
}

/** A channel on a vsn 1.0.0 socket: `pushed` holds the payloads of the frames it was sent. */
function listener(select: string[] | null = null): ChangeListener & { pushed: unknown[] } {
  const pushed: unknown[] = []
  return {
    pushed,
    topic: 'realtime:items',
    socket: { vsn: '1.0.0', send: (frame) => pushed.push((JSON.parse(String(frame)) as { payload: unknown }).payload), hold: () => {}, release: () => {} },
    subscriptions: [{ id: 7, event: null, schema: 'public', table: 'items', filters: [], select }],
    claimsGroup: () => ({ role: 'anon', claims: '{}' }),
  }
}

const insert = (id: number): CommittedTransaction => ({
  xid: 700 + id,
  commitTimestamp: '2026-12-02T10:00:00.000Z',
  changes: [{ relationOid: 16400, schema: 'public', table: 'items', event: 'INSERT', record: { id: String(id), name: `row ${id}` }, old: null, typeOids: new Map([['id', 23], ['name', 25]]) }],
})

function changesFor(pool: pg.Pool, listeners: ChangeListener[]) {
  const recorded: RealtimeEvent[] = []
  const changes = new ProjectChanges({
    ref: 'test',
    log,
    pool: () => pool,
    replicationLogin: async () => ({ port: 0, user: 'none', password: 'none' }),
    listeners: () => listeners,
    broadcast: () => {},
    record: (event) => recorded.push(event),
  })
  // What the stream calls for each committed transaction.
  const enqueue = (transaction: CommittedTransaction) => (changes as unknown as { enqueue(t: CommittedTransaction): void }).enqueue(transaction)
  return { changes, enqueue, recorded }
}

describe('realtime change delivery', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('delivers a change whose visibility check failed for a moment, once, and the changes after it in order', async () => {
    const { pool, calls } = flakyPool(2)
    const subscriber = listener()
    const { enqueue } = changesFor(pool, [subscriber])
    enqueue(insert(1))
    enqueue(insert(2))
    await vi.advanceTimersByTimeAsync(5_000)
    expect(calls.visibility).toBeGreaterThanOrEqual(3)
    const ids = subscriber.pushed.map((payload) => (payload as { data: { record: { id: number } } }).data.record.id)
    expect(ids).toEqual([1, 2])
    expect(subscriber.pushed[0]).toMatchObject({ ids: [7], data: { type: 'INSERT', table: 'items', record: { id: 1, name: 'row 1' } } })
  })

  it("cuts the payload to a binding's select (of the columns the role may select)", async () => {
    const { pool } = flakyPool(0)
    const subscriber = listener(['name', 'not_a_column'])
    const { enqueue } = changesFor(pool, [subscriber])
    enqueue(insert(1))
    await vi.advanceTimersByTimeAsync(100)
    expect(subscriber.pushed).toMatchObject([{ data: { record: { name: 'row 1' }, columns: [{ name: 'name', type: 'text' }] } }])
    expect((subscriber.pushed[0] as { data: { record: object } }).data.record).toEqual({ name: 'row 1' })
  })

  it('gives up a batch that keeps failing, and delivers the next one', async () => {
    const { pool, calls } = flakyPool(Number.POSITIVE_INFINITY)
    const subscriber = listener()
    const { enqueue, recorded } = changesFor(pool, [subscriber])
    enqueue(insert(1))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(subscriber.pushed).toEqual([])
    // The project's realtime_logs say so.
    expect(recorded).toMatchObject([{ level: 'error', event: 'changes_delivery', errorCode: 'UnableToDeliverChanges' }])

    calls.failures = 0
    enqueue(insert(2))
    await vi.advanceTimersByTimeAsync(1_000)
    expect(subscriber.pushed).toMatchObject([{ data: { record: { id: 2 } } }])
  })
})

describe('the change stream keepalive reply', () => {
  it('reports the exact position a shutting-down walsender waits for (the library adds one)', () => {
    expect(lsnBefore('0/14FCC20')).toBe('0/14FCC1F')
    expect(lsnBefore('1/0')).toBe('0/FFFFFFFF')
    expect(lsnBefore('0/0')).toBeNull()
  })
})

describe("realtime_logs' lines", () => {
  it('store topics a client chose with NUL bytes and at any length (jsonb refuses NUL: the whole batch was lost)', async () => {
    const inserted: string[] = []
    // The lines' JSON is the insert's second value (store.ts sends a named statement: a config object).
    const db = { query: async (query: { values: unknown[] }) => void inserted.push(String(query.values[1])) }
    const events = new RealtimeEventLog(db as never, log)
    events.record('ref', { level: 'error', event: 'join_refused', message: 'refused \u0000', topic: `a\u0000${'x'.repeat(5000)}`, errorCode: 'X' })
    await events.stop()
    expect(inserted).toHaveLength(1)
    expect(inserted[0]).not.toContain('\\u0000')
    const [line] = JSON.parse(inserted[0]!) as Array<{ metadata: { topic: string }; event_message: string }>
    expect(line!.metadata.topic.length).toBeLessThanOrEqual(501)
    expect(line!.event_message).toBe('refused \ufffd')
  })
})
