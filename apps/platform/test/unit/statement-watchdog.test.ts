import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { StatementWatchdog } from '../../src/sql-runner/watchdog.js'

/* The SQL runner's watchdog: one sweep for all running statements, not a timer per statement (issue 32). */

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('statement watchdog', () => {
  it('cancels a statement once past its time, and not before', () => {
    const watchdog = new StatementWatchdog(100)
    const cancelled: string[] = []
    const slow = {}
    const quick = {}
    watchdog.watch(slow, 1_000, () => cancelled.push('slow'))
    watchdog.watch(quick, 300, () => cancelled.push('quick'))
    vi.advanceTimersByTime(250)
    expect(cancelled).toEqual([])
    vi.advanceTimersByTime(100)
    expect(cancelled).toEqual(['quick'])
    vi.advanceTimersByTime(700)
    expect(cancelled).toEqual(['quick', 'slow'])
    vi.advanceTimersByTime(1_000)
    expect(cancelled).toEqual(['quick', 'slow'])
  })

  it('never cancels a statement that ended, and keeps no timer once nothing runs', () => {
    const watchdog = new StatementWatchdog(100)
    const cancel = vi.fn()
    const ended = {}
    watchdog.watch(ended, 200, cancel)
    expect(vi.getTimerCount()).toBe(1)
    watchdog.stop(ended)
    vi.advanceTimersByTime(1_000)
    expect(cancel).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(0)
    // Watched again after the sweep stopped: a new sweep starts.
    watchdog.watch({}, 200, cancel)
    vi.advanceTimersByTime(300)
    expect(cancel).toHaveBeenCalledTimes(1)
    expect(vi.getTimerCount()).toBe(0)
  })
})
