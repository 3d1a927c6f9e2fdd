import { afterEach, expect, test, vi } from 'vitest'
import { recoverableWindow } from '../../src/control/pitr/archive-restore.js'
import type { ProjectRow } from '../../src/control/project-store.js'
import type { Queryable } from '../../src/store/db.js'

const CONSISTENT_AT = new Date('2026-11-27T12:00:00.100Z')
const project = { ref: 'abcdefghijklmnopqrst', pitr_variant: 'pitr_7' } as ProjectRow
const db = { query: async () => ({ rows: [{ consistent_at: CONSISTENT_AT }] }) } as unknown as Queryable

afterEach(() => vi.useRealTimers())

test('opens no window in the second after the first backup, rather than one whose end is before its start', async () => {
  vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00.300Z') })
  // The earliest whole second is 12:00:01, still to come: a client would read an inverted window as "no window".
  expect(await recoverableWindow(db, project)).toEqual({})

  vi.setSystemTime(new Date('2026-11-27T12:00:01.000Z'))
  const second = Date.parse('2026-11-27T12:00:01Z') / 1000
  expect(await recoverableWindow(db, project)).toEqual({ earliestPhysicalBackupDateUnix: second, latestPhysicalBackupDateUnix: second })
})
