import { describe, expect, it } from 'vitest'
import { inRange, rangeBetween, rangeSize, rangeToCsv, rangeToJson, rangeToTsv } from '../src/features/results-grid/cellRange'

const columns = ['id', 'name', 'note', 'data']
const rows = [
  { id: 1, name: 'one', note: null, data: { a: 1 } },
  { id: 2, name: 'two\tcolumns', note: 'line\nbreak', data: [1, 2] },
  { id: 3, name: 'say "hi"', note: '', data: true },
]

describe('cell ranges of the results grid', () => {
  it('spans the rectangle between anchor and focus in any direction, kept inside the grid', () => {
    expect(rangeBetween({ row: 2, column: 3 }, { row: 0, column: 1 }, 3, 4)).toEqual({ top: 0, bottom: 2, left: 1, right: 3 })
    expect(rangeBetween({ row: 1, column: 1 }, { row: 1, column: 1 }, 3, 4)).toEqual({ top: 1, bottom: 1, left: 1, right: 1 })
    expect(rangeBetween({ row: -1, column: 0 }, { row: 9, column: 9 }, 3, 4)).toEqual({ top: 0, bottom: 2, left: 0, right: 3 })
    expect(rangeSize({ top: 0, bottom: 2, left: 1, right: 3 })).toEqual({ rows: 3, columns: 3, cells: 9 })
    expect(inRange({ top: 0, bottom: 1, left: 1, right: 2 }, 1, 2)).toBe(true)
    expect(inRange({ top: 0, bottom: 1, left: 1, right: 2 }, 2, 2)).toBe(false)
    expect(inRange(null, 0, 0)).toBe(false)
  })

  it('copies as TSV: tabs between values, a line per row, values as the grid shows them', () => {
    expect(rangeToTsv(columns, rows, { top: 0, bottom: 0, left: 0, right: 3 })).toBe('1\tone\tNULL\t{"a":1}')
    // Tabs and line breaks inside a value are quoted the way spreadsheets read them; other quotes stay as they are.
    expect(rangeToTsv(columns, rows, { top: 1, bottom: 2, left: 1, right: 2 })).toBe('"two\tcolumns"\t"line\nbreak"\nsay "hi"\t')
    expect(rangeToTsv(['q'], [{ q: '"quoted" start' }], { top: 0, bottom: 0, left: 0, right: 0 })).toBe('"""quoted"" start"')
    expect(rangeToTsv(columns, rows, { top: 0, bottom: 2, left: 0, right: 0 })).toBe('1\n2\n3')
    expect(rangeToTsv(columns, rows, { top: 2, bottom: 2, left: 3, right: 3 }, { header: true })).toBe('data\ntrue')
  })

  it('copies as CSV with a header and as JSON with the values’ own types', () => {
    expect(rangeToCsv(columns, rows, { top: 0, bottom: 1, left: 0, right: 2 })).toBe('id,name,note\r\n1,one,\r\n2,two\tcolumns,"line\nbreak"')
    expect(JSON.parse(rangeToJson(columns, rows, { top: 0, bottom: 1, left: 2, right: 3 }))).toEqual([
      { note: null, data: { a: 1 } },
      { note: 'line\nbreak', data: [1, 2] },
    ])
  })
})
