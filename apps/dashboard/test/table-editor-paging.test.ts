import { describe, expect, it } from 'vitest'
import { pagerState } from '../src/features/table-editor/paging'

const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => ({ id: String(from + index) }))
const keyset = { keyset: true, canReadFromEnd: true, pageSize: 100, primaryKey: ['id'], count: 250 }

describe('table editor pager', () => {
  it('moves by key from the first page, and reads the last page from the end', () => {
    const first = pagerState({ ...keyset, cursor: { kind: 'first' }, rows: rows(1, 100) })
    expect(first).toMatchObject({ canFirst: false, canPrevious: false, canNext: true, canLast: true, next: { kind: 'after', key: ['100'] } })
    const last = pagerState({ ...keyset, cursor: { kind: 'last' }, rows: rows(151, 250) })
    expect(last).toMatchObject({ canNext: false, canLast: false, canPrevious: true, previous: { kind: 'before', key: ['151'] } })
  })

  it('stops at the start when a page read backwards comes short, and at the end when one read forwards does', () => {
    expect(pagerState({ ...keyset, cursor: { kind: 'before', key: ['51'] }, rows: rows(1, 50) }).canPrevious).toBe(false)
    expect(pagerState({ ...keyset, cursor: { kind: 'after', key: ['200'] }, rows: rows(201, 250) }).canNext).toBe(false)
  })

  it('counts offsets from the start or from the end without a key ordering', () => {
    const offset = { ...keyset, keyset: false }
    expect(pagerState({ ...offset, cursor: { kind: 'offset', offset: 100 }, rows: rows(101, 200) })).toMatchObject({
      previous: { kind: 'offset', offset: 0 },
      next: { kind: 'offset', offset: 200 },
      last: { kind: 'fromEnd', offset: 0 },
    })
    expect(pagerState({ ...offset, cursor: { kind: 'fromEnd', offset: 0 }, rows: rows(151, 250) })).toMatchObject({ canNext: false, previous: { kind: 'fromEnd', offset: 100 } })
  })

  it('offers no last page when the rows cannot be read from the end, and no paging for a single page', () => {
    expect(pagerState({ ...keyset, keyset: false, canReadFromEnd: false, cursor: { kind: 'first' }, rows: rows(1, 100) }).canLast).toBe(false)
    const single = pagerState({ ...keyset, count: 40, cursor: { kind: 'first' }, rows: rows(1, 40) })
    expect([single.canFirst, single.canPrevious, single.canNext, single.canLast]).toEqual([false, false, false, false])
  })
})
