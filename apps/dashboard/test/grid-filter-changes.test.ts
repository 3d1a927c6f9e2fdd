import { formatFilter, type GridFilter } from '@stratum/sql'
import { describe, expect, it } from 'vitest'
import { parseFilters, withoutFilterAt, type GridFiltersChange } from '../src/lib/gridFilterChanges'

const title: GridFilter = { column: 'title', operator: '~~', value: '%a%' }
const year: GridFilter = { column: 'year', operator: '>', value: '2000' }
const genre: GridFilter = { column: 'genre', operator: '=', value: 'drama' }

describe('grid filter changes made before the page re-rendered', () => {
  it('a second filter added from the same stale render keeps the first', () => {
    // Each Add filter is a change of the latest filters; both start from what the URL holds by then.
    const add = (filter: GridFilter): GridFiltersChange => (latest) => [...latest, filter]
    let url: GridFilter[] = []
    for (const change of [add(title), add(year)]) url = change(url)
    expect(url).toEqual([title, year])
  })

  it('removes the filter shown at the index', () => {
    expect(withoutFilterAt([title, year, genre], 1, year)).toEqual([title, genre])
  })

  it('leaves the filters as they are when that filter is no longer there (a second Remove on a stale render)', () => {
    const afterFirst = withoutFilterAt([title, year, genre], 1, year)
    expect(withoutFilterAt(afterFirst, 1, year)).toEqual([title, genre])
    expect(withoutFilterAt(afterFirst, 4, year)).toEqual([title, genre])
    // The same column with another value is another filter.
    expect(withoutFilterAt([title, { ...year, value: '1990' }], 1, year)).toEqual([title, { ...year, value: '1990' }])
  })
})

describe('parseFilters', () => {
  it('reads the filters written in the URL, in order, and leaves out a value that does not parse', () => {
    expect(parseFilters([formatFilter(title), 'not a filter', formatFilter(year)])).toEqual([title, year])
  })
})
