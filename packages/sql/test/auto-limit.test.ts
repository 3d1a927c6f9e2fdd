import { describe, expect, it } from 'vitest'
import { applyAutoLimit, NO_ROW_LIMIT, ROW_LIMIT_OPTIONS, shouldAppendLimit, SQL_PANEL_ROW_LIMIT, SQL_PANEL_ROW_LIMIT_NOTICE } from '../src/index.js'

describe('row limit options', () => {
  it('are no limit, 100, 500 and 1,000', () => {
    expect(ROW_LIMIT_OPTIONS).toEqual([-1, 100, 500, 1000])
    expect(NO_ROW_LIMIT).toBe(-1)
    expect(SQL_PANEL_ROW_LIMIT).toBe(100)
    expect(SQL_PANEL_ROW_LIMIT_NOTICE).toBe('Limited to only 100 rows')
  })
})

describe('applyAutoLimit', () => {
  it.each([
    ['select * from t', 'select * from t limit 100'],
    ['select * from t;', 'select * from t limit 100;'],
    ['  SELECT * FROM t  ;  \n', '  SELECT * FROM t limit 100  ;  \n'],
    ['select 1;;', 'select 1 limit 100;;'],
    ['select * from t order by a desc', 'select * from t order by a desc limit 100'],
    ['select * from t offset 10', 'select * from t offset 10 limit 100'],
    ['select * from (select * from t limit 5) s', 'select * from (select * from t limit 5) s limit 100'],
    ["select 'limit 5', \"fetch first\" from t", "select 'limit 5', \"fetch first\" from t limit 100"],
    ['select 1 union select 2', 'select 1 union select 2 limit 100'],
  ])('limits %s', (sql, expected) => {
    expect(applyAutoLimit(sql, 100)).toEqual({ sql: expected, autoLimit: 100 })
  })

  it.each([
    ['more than one statement', 'select 1; select 2'],
    ['a line comment', 'select * from t -- all of them'],
    ['a block comment', '/* users */ select * from users'],
    ['an existing limit', 'select * from t limit 5'],
    ['an existing LIMIT ALL', 'select * from t LIMIT ALL'],
    ['a fetch first clause', 'select * from t fetch first 5 rows only'],
    ['a fetch next clause', 'select * from t offset 1 fetch next 5 rows only'],
    ['not a select', 'update t set a = 1'],
    ['a CTE', 'with x as (select 1) select * from x'],
    ['a parenthesised select', '(select 1)'],
    ['values', 'values (1)'],
    ['select into, which creates a table', 'select * into t2 from t'],
    ['unterminated input', "select 'abc"],
    ['unbalanced parentheses', 'select count( from t'],
    ['a stray closing parenthesis', 'select 1) from t'],
    ['an @set directive', '@set a = 1\nselect :a'],
    ['empty SQL', '   '],
  ])('leaves alone SQL with %s', (_, sql) => {
    expect(applyAutoLimit(sql, 100)).toEqual({ sql, autoLimit: undefined })
  })

  it('needs a positive whole limit', () => {
    for (const limit of [NO_ROW_LIMIT, 0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(applyAutoLimit('select 1', limit).autoLimit).toBeUndefined()
      expect(shouldAppendLimit('select 1', limit)).toBe(false)
    }
    for (const limit of [100, 500, 1000]) expect(applyAutoLimit('select 1', limit)).toEqual({ sql: `select 1 limit ${limit}`, autoLimit: limit })
  })
})
