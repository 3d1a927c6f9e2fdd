import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// drafts.ts runs in the browser: a window with timers and local storage is enough for it here.
beforeEach(() => {
  vi.useFakeTimers()
  const storage = new Map<string, string>()
  vi.stubGlobal('window', {
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (timer: ReturnType<typeof setTimeout>) => clearTimeout(timer),
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    },
  })
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

/** A saver whose saves finish only when the test says so. */
function slowSaver() {
  const calls: { sql: string; finish: () => void }[] = []
  let inFlight = 0
  let mostAtOnce = 0
  const save = (sql: string) =>
    new Promise<void>((resolve) => {
      inFlight++
      mostAtOnce = Math.max(mostAtOnce, inFlight)
      calls.push({
        sql,
        finish: () => {
          inFlight--
          resolve()
        },
      })
    })
  return { saver: { save }, calls, mostAtOnce: () => mostAtOnce }
}

describe('SQL editor draft saves', () => {
  it('waits for a save in flight: typing again after the debounce sends the latest SQL once the first save is done', async () => {
    const { setDraft, getDraft, forgetDraft } = await import('../src/features/sql-editor/drafts')
    const { saver, calls, mostAtOnce } = slowSaver()
    setDraft('ref', 'a', 'select 1', saver)
    await vi.advanceTimersByTimeAsync(1000)
    expect(calls.map((call) => call.sql)).toEqual(['select 1'])

    // The server is slow: the next edit's save falls due while the first is still in flight.
    setDraft('ref', 'a', 'select 1;', saver)
    setDraft('ref', 'a', 'select 12', saver)
    await vi.advanceTimersByTimeAsync(1000)
    expect(calls).toHaveLength(1)
    expect(getDraft('ref', 'a')).toMatchObject({ sql: 'select 12', saveState: 'UPDATING' })

    calls[0].finish()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.map((call) => call.sql)).toEqual(['select 1', 'select 12'])
    calls[1].finish()
    await vi.advanceTimersByTimeAsync(0)
    expect(mostAtOnce()).toBe(1)
    expect(getDraft('ref', 'a')).toEqual({ saveState: 'IDLE' })
    forgetDraft('ref', 'a')
  })

  it('keeps saving after a failed save, and saves of different snippets do not wait for each other', async () => {
    const { setDraft, getDraft, forgetDraft } = await import('../src/features/sql-editor/drafts')
    const failed: unknown[] = []
    let attempts = 0
    const flaky = {
      save: () => (++attempts === 1 ? Promise.reject(new Error('offline')) : Promise.resolve()),
      onFailed: (error: unknown) => void failed.push(error),
    }
    const { saver, calls } = slowSaver()
    setDraft('ref', 'b', 'select 2', flaky)
    setDraft('ref', 'c', 'select 3', saver)
    await vi.advanceTimersByTimeAsync(1000)
    expect(getDraft('ref', 'b').saveState).toBe('UPDATING_FAILED')
    expect(failed).toHaveLength(1)
    expect(calls.map((call) => call.sql)).toEqual(['select 3'])

    setDraft('ref', 'b', 'select 22', flaky)
    await vi.advanceTimersByTimeAsync(1000)
    expect(getDraft('ref', 'b')).toEqual({ saveState: 'IDLE' })
    calls[0].finish()
    await vi.advanceTimersByTimeAsync(0)
    expect(getDraft('ref', 'c')).toEqual({ saveState: 'IDLE' })
    forgetDraft('ref', 'b')
    forgetDraft('ref', 'c')
  })

  it('runs a chart save queued behind the SQL save after it, and one after a failed save too', async () => {
    const { setDraft, queueSnippetSave, forgetDraft } = await import('../src/features/sql-editor/drafts')
    const { saver, calls } = slowSaver()
    const order: string[] = []
    setDraft('ref', 'd', 'select 4', saver)
    await vi.advanceTimersByTimeAsync(1000)
    const chart = queueSnippetSave('ref', 'd', async () => void order.push(`chart after ${calls.length} SQL save`))
    const failing = queueSnippetSave('ref', 'd', () => Promise.reject(new Error('refused')))
    const last = queueSnippetSave('ref', 'd', async () => void order.push('last'))
    await vi.advanceTimersByTimeAsync(0)
    expect(order).toEqual([])
    calls[0].finish()
    await chart
    await expect(failing).rejects.toThrow('refused')
    await last
    expect(order).toEqual(['chart after 1 SQL save', 'last'])
    forgetDraft('ref', 'd')
  })
})
