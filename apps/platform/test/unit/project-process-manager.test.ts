import pino from 'pino'
import { describe, expect, it, vi } from 'vitest'
import { ProjectProcessManager, type Managed } from '../../src/control/processes/project-process-manager.js'

class Fake implements Managed {
  static made = 0
  readonly id = ++Fake.made
  stops = 0
  exited = false
  busy = false
  async stop(): Promise<void> {
    this.stops++
  }
}

const log = pino({ level: 'silent' })

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: Error) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

function manager(options: Partial<ConstructorParameters<typeof ProjectProcessManager<Fake>>[0]> = {}) {
  return new ProjectProcessManager<Fake>({ what: 'fake', idleMs: 60_000, log, alive: (fake) => !fake.exited, busy: (fake) => fake.busy, ...options })
}

describe('ProjectProcessManager', () => {
  it('starts one value for concurrent acquires of a key, and shares it', async () => {
    const m = manager()
    const gate = deferred<Fake>()
    const start = vi.fn(() => gate.promise)
    const first = m.acquire('a', 'v1', start)
    const second = m.acquire('a', 'v1', start)
    gate.resolve(new Fake())
    expect(await first).toBe(await second)
    expect(start).toHaveBeenCalledTimes(1)
    expect(m.peek('a')).toBe(await first)
    await m.stopAll()
  })

  it('replaces a value whose fingerprint changed or that died, stopping the old one first', async () => {
    const m = manager()
    const v1 = await m.acquire('a', 'v1', async () => new Fake())
    const v2 = await m.acquire('a', 'v2', async () => {
      expect(v1.stops).toBe(1)
      return new Fake()
    })
    expect(v2).not.toBe(v1)
    v2.exited = true
    const v3 = await m.acquire('a', 'v2', async () => new Fake())
    expect(v3).not.toBe(v2)
    expect(v2.stops).toBe(1)
    expect(m.fingerprintOf('a')).toBe('v2')
    await m.stopAll()
    expect(v3.stops).toBe(1)
  })

  it('forgets a value that could not start; the next acquire tries again', async () => {
    const m = manager()
    await expect(m.acquire('a', 'v1', async () => Promise.reject(new Error('no binary')))).rejects.toThrow('no binary')
    expect(m.peek('a')).toBeNull()
    const value = await m.acquire('a', 'v1', async () => new Fake())
    expect(m.peek('a')).toBe(value)
    await m.stopAll()
  })

  it('stops idle values, never a busy one', async () => {
    const m = manager({ idleMs: 1 })
    const idle = await m.acquire('idle', 'v', async () => new Fake())
    const busy = await m.acquire('busy', 'v', async () => new Fake())
    busy.busy = true
    await vi.waitFor(() => expect(idle.stops).toBe(1), { timeout: 10_000 })
    expect(m.peek('idle')).toBeNull()
    expect(m.peek('busy')).toBe(busy)
    expect(busy.stops).toBe(0)
    await m.stopAll()
  })

  it('counts idle time from when a value is ready, not from when its start began (a slow start is not stopped at once)', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] })
    try {
      const m = manager({ idleMs: 1_000 })
      const gate = deferred<Fake>()
      const acquired = m.acquire('slow', 'v', () => gate.promise)
      // The start takes five idle periods (a PostgREST's first start on a loaded machine).
      await vi.advanceTimersByTimeAsync(5_000)
      const value = new Fake()
      gate.resolve(value)
      expect(await acquired).toBe(value)
      // The request that started it is still being sent on: the next sweeps leave it running.
      await vi.advanceTimersByTimeAsync(500)
      expect(value.stops).toBe(0)
      expect(m.peek('slow')).toBe(value)
      await vi.advanceTimersByTimeAsync(1_000)
      expect(value.stops).toBe(1)
      await m.stopAll()
    } finally {
      vi.useRealTimers()
    }
  })

  it('discards a value only while it is the current one', async () => {
    const m = manager()
    const old = await m.acquire('a', 'v1', async () => new Fake())
    const current = await m.acquire('a', 'v2', async () => new Fake())
    await m.discard('a', old)
    expect(m.peek('a')).toBe(current)
    await m.discard('a', current)
    expect(m.peek('a')).toBeNull()
    expect(current.stops).toBe(1)
    await m.stopAll()
  })

  it('starts a value that died again through restart, after a backoff', async () => {
    const restarted: string[] = []
    const m: ProjectProcessManager<Fake> = manager({
      restart: async (key) => {
        restarted.push(key)
        await m.acquire(key, 'v', async () => new Fake())
      },
    })
    const value = await m.acquire('a', 'v', async () => new Fake())
    m.died('a', value, { code: 1 })
    expect(m.peek('a')).toBeNull()
    await vi.waitFor(() => expect(m.peek('a')).not.toBeNull(), { timeout: 10_000 })
    expect(restarted).toEqual(['a'])
    // A stale death report (of a value already replaced) changes nothing.
    m.died('a', value)
    expect(m.peek('a')).not.toBeNull()
    await m.stopAll()
  })

  it('stops the values of matching keys, and refuses to start anything once the platform stops', async () => {
    const m = manager()
    const a1 = await m.acquire('ref/one', 'v', async () => new Fake())
    const a2 = await m.acquire('ref/two', 'v', async () => new Fake())
    const other = await m.acquire('other/one', 'v', async () => new Fake())
    await m.stopWhere((key) => key.startsWith('ref/'))
    expect([a1.stops, a2.stops, other.stops]).toEqual([1, 1, 0])
    expect(m.running().map(([key]) => key)).toEqual(['other/one'])
    await m.stopAll()
    expect(other.stops).toBe(1)
    await expect(m.acquire('x', 'v', async () => new Fake())).rejects.toThrow('The platform is stopping')
  })

  it('stops a value that finished starting after stopAll began', async () => {
    const m = manager()
    const gate = deferred<Fake>()
    const started = deferred<void>()
    const pending = m.acquire('a', 'v', () => {
      started.resolve()
      return gate.promise
    })
    await started.promise
    const stopping = m.stopAll()
    const late = new Fake()
    gate.resolve(late)
    await pending
    await stopping
    expect(late.stops).toBe(1)
  })
})
