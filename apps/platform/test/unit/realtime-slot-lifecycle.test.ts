import type pg from 'pg'
import pino from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ReplicationLogin } from '../../src/services/realtime/changes/stream.js'

/*
 * The change stream's slot over an owner's life, with the stream and the slot drop stood in for: a halt or stop that
 * comes while a start is under way ends what that start made; a drop that keeps failing while the instance is down
 * for long is still done once the instance is back. (The real stream and slot: server/realtime.test.ts.)
 */

const fake = vi.hoisted(() => ({
  streams: [] as Array<{ started: boolean; stopped: boolean }>,
  drops: 0,
  dropFailures: 0,
  /** Ends each started stream by itself (the instance went away), by index. */
  enders: [] as Array<() => void>,
}))

vi.mock('../../src/services/realtime/changes/stream.js', () => ({
  ChangeStream: class {
    private readonly state = { started: false, stopped: false }
    constructor(readonly login: ReplicationLogin) {
      fake.streams.push(this.state)
    }
    start() {
      this.state.started = true
      // `ended` settles only when the stream stops by itself: when a test calls its ender.
      return { started: Promise.resolve(), ended: new Promise<void>((resolve) => fake.enders.push(resolve)) }
    }
    async stop() {
      this.state.stopped = true
    }
  },
  dropProjectSlot: async () => {
    if (fake.dropFailures > 0) {
      fake.dropFailures--
      throw new Error('connect ECONNREFUSED')
    }
    fake.drops++
  },
}))

const { ProjectChanges } = await import('../../src/services/realtime/changes/project-changes.js')

const pool = { connect: async () => ({ query: async () => ({ rows: [] }), release: () => {} }) } as unknown as pg.Pool

function owner(login: () => Promise<ReplicationLogin>) {
  return new ProjectChanges({
    ref: 'test',
    log: pino({ level: 'silent' }),
    pool: () => pool,
    replicationLogin: login,
    listeners: () => [],
    broadcast: () => {},
    record: () => {},
  })
}

const LOGIN: ReplicationLogin = { port: 5432, user: 'stratum_replication', password: 'x' }

afterEach(() => {
  vi.useRealTimers()
  fake.streams.length = 0
  fake.drops = 0
  fake.dropFailures = 0
  fake.enders.length = 0
})

describe('the realtime slot over an owner’s life', () => {
  it('a stream lost while the instance is down starts again once it is back, however many starts failed meanwhile', async () => {
    vi.useFakeTimers()
    let down = false
    const changes = owner(async () => {
      if (down) throw new Error('connect ECONNREFUSED')
      return LOGIN
    })
    changes.listen()
    await vi.waitFor(() => expect(fake.streams).toHaveLength(1))
    // A point-in-time restore: the instance is gone for a minute, the listener stays joined.
    down = true
    fake.enders[0]!()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(fake.streams).toHaveLength(1)
    down = false
    await vi.advanceTimersByTimeAsync(10_000)
    expect(fake.streams).toEqual([
      { started: true, stopped: false },
      { started: true, stopped: false },
    ])
    await changes.stop()
  })

  it('a stop that comes while the stream is starting ends that stream and drops its slot', async () => {
    let giveLogin!: (login: ReplicationLogin) => void
    const changes = owner(() => new Promise((resolve) => (giveLogin = resolve)))
    changes.listen()
    await vi.waitFor(() => expect(giveLogin).toBeTypeOf('function'))
    const stopped = changes.stop()
    giveLogin(LOGIN)
    await stopped
    expect(fake.streams).toEqual([{ started: true, stopped: true }])
    expect(fake.drops).toBe(1)
  })

  it('the last listener leaving while the stream starts: the halt after the idle time ends it', async () => {
    vi.useFakeTimers()
    let giveLogin!: (login: ReplicationLogin) => void
    const changes = owner(() => new Promise((resolve) => (giveLogin = resolve)))
    changes.listen()
    changes.unlisten()
    await vi.advanceTimersByTimeAsync(10_000)
    giveLogin(LOGIN)
    await vi.advanceTimersByTimeAsync(0)
    expect(fake.streams).toEqual([{ started: true, stopped: true }])
    expect(fake.drops).toBe(1)
  })

  it('a drop that fails for minutes (the instance down) is still done once it can be', async () => {
    vi.useFakeTimers()
    const changes = owner(async () => LOGIN)
    changes.listen()
    await changes.ready()
    // Every try for the first two minutes fails.
    fake.dropFailures = 8
    changes.unlisten()
    await vi.advanceTimersByTimeAsync(10_000 + 2 * 60_000 + 60_000)
    expect(fake.dropFailures).toBe(0)
    expect(fake.drops).toBe(1)
  })

  it('a start while a drop is being retried stops the retries and keeps the new stream’s slot', async () => {
    vi.useFakeTimers()
    const changes = owner(async () => LOGIN)
    changes.listen()
    await changes.ready()
    fake.dropFailures = 1
    changes.unlisten()
    await vi.advanceTimersByTimeAsync(10_000)
    changes.listen()
    await changes.ready()
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    expect(fake.drops).toBe(0)
    expect(fake.streams.map((stream) => stream.stopped)).toEqual([true, false])
  })
})
