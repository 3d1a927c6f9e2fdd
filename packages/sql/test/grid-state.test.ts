import { describe, expect, it } from 'vitest'
import { columnWidth, FILTER_OPERATORS, filterOperatorAbbrev, filterOperatorFromAbbrev, formatFilter, formatSort, parseFilter, parseSort, type GridFilter } from '../src/index.js'

describe('filter operators', () => {
  it('are the ten operators with their abbreviations, in the spec order', () => {
    expect(FILTER_OPERATORS.map((o) => `${o.operator} ${o.abbrev}`)).toEqual([
      '= eq',
      '<> neq',
      '> gt',
      '< lt',
      '>= gte',
      '<= lte',
      '~~ like',
      '~~* ilike',
      'in in',
      'is is',
    ])
    expect(filterOperatorAbbrev('~~*')).toBe('ilike')
    expect(filterOperatorFromAbbrev('neq')).toBe('<>')
    expect(filterOperatorFromAbbrev('ne')).toBeUndefined()
  })
})

describe('sort state', () => {
  it('formats and parses column:asc|desc', () => {
    expect(formatSort({ column: 'created_at', ascending: false })).toBe('created_at:desc')
    expect(parseSort('name:asc')).toEqual({ column: 'name', ascending: true })
    expect(parseSort('name:desc')).toEqual({ column: 'name', ascending: false })
  })

  it('keeps colons inside column names', () => {
    const sort = { column: 'a:b', ascending: true }
    expect(parseSort(formatSort(sort))).toEqual(sort)
  })

  it('rejects malformed sorts', () => {
    for (const bad of ['name', 'name:', ':asc', 'name:ASC', 'name:up', '']) expect(parseSort(bad), bad).toBeUndefined()
  })
})

describe('filter state', () => {
  it('formats and parses every operator', () => {
    for (const { operator, abbrev } of FILTER_OPERATORS) {
      const filter: GridFilter = { column: 'col', operator, value: 'v' }
      expect(formatFilter(filter)).toBe(`col:${abbrev}:v`)
      expect(parseFilter(`col:${abbrev}:v`)).toEqual(filter)
    }
  })

  it('keeps colons in values and in column names, and allows empty values', () => {
    expect(parseFilter('starts_at:gte:2024-01-01 12:30:00')).toEqual({ column: 'starts_at', operator: '>=', value: '2024-01-01 12:30:00' })
    expect(parseFilter('url:like:https://x.io/%')).toEqual({ column: 'url', operator: '~~', value: 'https://x.io/%' })
    expect(parseFilter('odd:name:eq:1')).toEqual({ column: 'odd:name', operator: '=', value: '1' })
    expect(parseFilter('name:eq:')).toEqual({ column: 'name', operator: '=', value: '' })
    const filter: GridFilter = { column: 'a:b', operator: 'is', value: 'not null' }
    expect(parseFilter(formatFilter(filter))).toEqual(filter)
  })

  it('rejects malformed filters', () => {
    for (const bad of ['name', 'name:eq', ':eq:1', 'name:equals:1', 'name:=:1', '']) expect(parseFilter(bad), bad).toBeUndefined()
  })
})

describe('columnWidth', () => {
  it('gives 8.25 px per character of the longest text', () => {
    expect(columnWidth('a_fairly_long_name')).toBe(18 * 8.25)
    expect(columnWidth('id', ['a value that is longer than the name'])).toBe(36 * 8.25)
  })

  it('clamps to 100..500 px', () => {
    expect(columnWidth('id')).toBe(100)
    expect(columnWidth('')).toBe(100)
    expect(columnWidth('x'.repeat(61))).toBe(500)
    expect(columnWidth('x'.repeat(60))).toBe(495)
  })

  it('measures objects as JSON, nulls as NULL and emoji as one character', () => {
    expect(columnWidth('j', [{ key: 'a fairly long value' }])).toBe(JSON.stringify({ key: 'a fairly long value' }).length * 8.25)
    expect(columnWidth('n', [null, undefined, 12345])).toBe(100)
    expect(columnWidth('😀'.repeat(20))).toBe(20 * 8.25)
  })
})
