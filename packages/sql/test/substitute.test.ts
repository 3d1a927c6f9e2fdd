import { describe, expect, it } from 'vitest'
import { formatParameterValue, ParameterError, quoteIdentifier, quoteLiteral, substituteParameters } from '../src/index.js'

describe('substituteParameters', () => {
  it('replaces parameters with quoted values and removes the directive lines', () => {
    const sql = "@set status:active|archived = active\n-- @set lim:int = 10\nselect * from t where status = :status limit :lim"
    expect(substituteParameters(sql)).toBe("select * from t where status = 'active' limit 10")
    expect(substituteParameters(sql, { lim: '25', status: 'archived' })).toBe("select * from t where status = 'archived' limit 25")
  })

  it('leaves strings, comments, dollar quotes, identifiers and casts untouched', () => {
    const sql = "select :v, ':v', $$:v$$, \"a:v\", x::v /* :v */ -- :v"
    expect(substituteParameters(sql, { v: 'it' })).toBe("select 'it', ':v', $$:v$$, \"a:v\", x::v /* :v */ -- :v")
  })

  it('quotes strings so that values cannot break out', () => {
    expect(substituteParameters('select :s', { s: "x'; drop table t; --" })).toBe("select 'x''; drop table t; --'")
    expect(substituteParameters('select :s', { s: "a\\'b" })).toBe("select E'a\\\\''b'")
  })

  it('keeps an empty value as an empty string', () => {
    expect(substituteParameters('select :s', { s: '' })).toBe("select ''")
  })

  it('raises a ParameterError naming a missing parameter', () => {
    expect(() => substituteParameters('select :a, :b', { a: '1' })).toThrow(new ParameterError('Missing value for parameter: b', 'b'))
    try {
      substituteParameters('select :zz')
    } catch (error) {
      expect(error).toBeInstanceOf(ParameterError)
      expect((error as ParameterError).parameter).toBe('zz')
    }
  })

  it('keeps the layout around removed directives', () => {
    expect(substituteParameters('select 1 -- @set a = 2\n, :a', {})).toBe("select 1 \n, '2'")
    expect(substituteParameters('  @set a = 2;\n\n  select :a')).toBe("\n  select '2'")
    expect(substituteParameters('select :a\r\n@set a = 3\r\n')).toBe("select '3'\r\n")
  })

  it('returns SQL without parameters as it was', () => {
    const sql = "select a::int, 'x:y', b[1:2] from t -- plain"
    expect(substituteParameters(sql)).toBe(sql)
  })
})

describe('formatParameterValue', () => {
  const format = (value: string, type?: string, possibleValues?: string[]) => formatParameterValue(value, { name: 'p', type, possibleValues })

  it('writes numbers bare, parenthesising negatives so they cannot form a comment', () => {
    expect(format('42', 'int')).toBe('42')
    expect(format(' 3.5 ', 'numeric')).toBe('3.5')
    expect(format('+7', 'bigint')).toBe('7')
    expect(format('1e3', 'float')).toBe('1e3')
    expect(format('-5', 'integer')).toBe('(-5)')
    expect(substituteParameters('-- @set n:int = -5\nselect 1-:n')).toBe('select 1-(-5)')
  })

  it('rejects values that are not numbers for number types', () => {
    for (const bad of ['', 'abc', '1; drop table t', '0x10', '1 2', 'NaN']) {
      expect(() => format(bad, 'int')).toThrow(new ParameterError('Parameter p must be a number', 'p'))
    }
  })

  it('normalises booleans', () => {
    expect(['true', 'T', 'yes', 'on', '1'].map((v) => format(v, 'boolean'))).toEqual(['true', 'true', 'true', 'true', 'true'])
    expect(['false', 'f', 'NO', 'off', '0'].map((v) => format(v, 'bool'))).toEqual(['false', 'false', 'false', 'false', 'false'])
    expect(() => format('maybe', 'boolean')).toThrow('Parameter p must be true or false')
  })

  it('accepts only declared enum options, as string literals', () => {
    expect(format('archived', 'enum', ['active', 'archived'])).toBe("'archived'")
    expect(() => format('gone', 'enum', ['active', 'archived'])).toThrow('Parameter p must be one of: active, archived')
  })

  it('quotes identifiers part by part, and passes raw values through', () => {
    expect(format('public.Users', 'identifier')).toBe('"public"."Users"')
    expect(format('we"ird', 'ident')).toBe('"we""ird"')
    expect(() => format(' ', 'identifier')).toThrow('Parameter p must name an identifier')
    expect(format('created_at desc', 'raw')).toBe('created_at desc')
  })

  it('quotes every other type as a string literal Postgres coerces', () => {
    expect(format('2024-01-01', 'date')).toBe("'2024-01-01'")
    expect(format('hello', undefined)).toBe("'hello'")
    expect(format('10', undefined)).toBe("'10'")
  })
})

describe('quoteLiteral and quoteIdentifier', () => {
  it('escape quotes and backslashes', () => {
    expect(quoteLiteral("it's")).toBe("'it''s'")
    expect(quoteLiteral('a\\b')).toBe("E'a\\\\b'")
    expect(quoteLiteral('')).toBe("''")
    expect(quoteIdentifier('a"b')).toBe('"a""b"')
  })
})
