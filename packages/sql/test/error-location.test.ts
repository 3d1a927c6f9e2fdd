import { describe, expect, it } from 'vitest'
import { errorLocation, errorLocationLines } from '../src/error-location.js'

describe('errorLocation', () => {
  it('finds the line and column of a 1-based position', () => {
    const sql = 'select 1;\nselect lower(1, 2, 3)'
    expect(errorLocation(sql, 18)).toEqual({ line: 2, column: 8, lineText: 'select lower(1, 2, 3)' })
    expect(errorLocation(sql, 1)).toEqual({ line: 1, column: 1, lineText: 'select 1;' })
  })

  it('counts \\r\\n and \\r as one line break each', () => {
    expect(errorLocation('a\r\nb\rcd x', 9)).toEqual({ line: 3, column: 4, lineText: 'cd x' })
  })

  it('answers the end of the text (an unterminated statement) and nothing outside it', () => {
    expect(errorLocation('select (', 9)).toEqual({ line: 1, column: 9, lineText: 'select (' })
    expect(errorLocation('select 1', 0)).toBeUndefined()
    expect(errorLocation('select 1', 10)).toBeUndefined()
    expect(errorLocation('select 1', undefined)).toBeUndefined()
    expect(errorLocation('select 1', 1.5)).toBeUndefined()
  })

  it("writes psql's LINE lines with the caret under the column, tabs kept", () => {
    expect(errorLocationLines('select 1;\nselect lower(1, 2, 3)', 18)).toEqual(['LINE 2: select lower(1, 2, 3)', '               ^'])
    expect(errorLocationLines('\tselect nope', 9)).toEqual(['LINE 1: \tselect nope', '        \t       ^'])
    expect(errorLocationLines('select 1', undefined)).toBeUndefined()
  })
})
