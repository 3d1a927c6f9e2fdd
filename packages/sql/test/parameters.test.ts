import { describe, expect, it } from 'vitest'
import { parseParameterDirectives, parseParameters } from '../src/index.js'

describe('parseParameters', () => {
  it('parses declarations and uses into the spec shape', () => {
    const sql = "@set status:active|archived|deleted = active\n@set since:date = 2024-01-01\nselect * from t where status = :status and created_at > :since and owner = :owner"
    expect(parseParameters(sql)).toEqual([
      { name: 'status', value: 'active', defaultValue: 'active', type: 'enum', possibleValues: ['active', 'archived', 'deleted'], occurrences: 1 },
      { name: 'since', value: '2024-01-01', defaultValue: '2024-01-01', type: 'date', possibleValues: undefined, occurrences: 1 },
      { name: 'owner', value: '', defaultValue: undefined, type: undefined, possibleValues: undefined, occurrences: 1 },
    ])
  })

  it('counts occurrences only in code', () => {
    const sql = [
      "select :id, ':id', $$ :id $$, $q$:id$q$, \"col:id\", E'\\':id'",
      '-- where id = :id',
      '/* :id /* :id */ */',
      'from t where id = :id or parent = :id::int and a::id = 1 and b[lo:id] = 2',
    ].join('\n')
    expect(parseParameters(sql)).toEqual([
      { name: 'id', value: '', defaultValue: undefined, type: undefined, possibleValues: undefined, occurrences: 3 },
    ])
  })

  it('lists parameters in order of first use and skips declared but unused ones', () => {
    const sql = '-- @set unused = 1\nselect :b, :a, :b'
    expect(parseParameters(sql).map((p) => [p.name, p.occurrences])).toEqual([
      ['b', 2],
      ['a', 1],
    ])
  })

  it('reads declarations in line comments, with spaces around the parts', () => {
    expect(parseParameters('--   @set  lim : int  =  10  \nselect * from t limit :lim')[0]).toMatchObject({
      name: 'lim',
      type: 'int',
      value: '10',
      defaultValue: '10',
    })
  })

  it('lets the last declaration of a name win', () => {
    expect(parseParameters('@set a = 1\n@set a = 2\nselect :a')[0]?.value).toBe('2')
  })

  it('trims enum options and drops empty ones', () => {
    expect(parseParameters('@set s: a | b || c = b\nselect :s')[0]).toMatchObject({ type: 'enum', possibleValues: ['a', 'b', 'c'] })
  })

  it('unquotes quoted default values', () => {
    expect(parseParameters("@set who = 'O''Brien'\nselect :who")[0]?.value).toBe("O'Brien")
  })

  it('returns nothing without parameters', () => {
    expect(parseParameters('')).toEqual([])
    expect(parseParameters("select a::int, 'x:y' from t")).toEqual([])
  })
})

describe('parseParameterDirectives', () => {
  it('skips malformed directives and ignores @set that is not at a line start or in a string', () => {
    const sql = "@set = 1\n@set novalue =\n@set ok = yes\nselect '@set x = 1', 1 @set y = 2"
    expect(parseParameterDirectives(sql).map((d) => [d.name, d.value])).toEqual([['ok', 'yes']])
  })

  it('stops a bare directive value at a semicolon', () => {
    const [directive] = parseParameterDirectives('@set a = 5; select :a')
    expect(directive).toMatchObject({ name: 'a', value: '5', start: 0, end: 10 })
  })
})
