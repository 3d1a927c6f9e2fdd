import { describe, expect, it } from 'vitest'
import { buildCopyFrom, columnNamesFromHeader, parseCsvSample, TableEditorInputError } from '../src/index.js'

describe('buildCopyFrom', () => {
  it('quotes every name and states the format', () => {
    expect(buildCopyFrom({ schema: 'public', table: 'we"ird', columns: ['id', 'a b', 'x"); drop table t; --'], header: true, delimiter: ',' })).toBe(
      `COPY "public"."we""ird" ("id", "a b", "x""); drop table t; --") FROM STDIN WITH (FORMAT csv, HEADER true, DELIMITER ',')`,
    )
    expect(buildCopyFrom({ schema: 's', table: 't', columns: ['c'], header: false, delimiter: '\t' })).toContain(`HEADER false, DELIMITER E'\\t'`)
  })

  it('refuses names Postgres would truncate, empty, repeated or no columns, and unknown delimiters', () => {
    const spec = { schema: 'public', table: 't', columns: ['a'], header: true, delimiter: ',' as const }
    expect(() => buildCopyFrom({ ...spec, table: 'x'.repeat(64) })).toThrow(TableEditorInputError)
    expect(() => buildCopyFrom({ ...spec, table: 'é'.repeat(32) })).toThrow(/longer than 63 bytes/)
    expect(() => buildCopyFrom({ ...spec, columns: [] })).toThrow(/at least one column/)
    expect(() => buildCopyFrom({ ...spec, columns: ['a', 'a'] })).toThrow(/twice/)
    expect(() => buildCopyFrom({ ...spec, columns: [''] })).toThrow(/empty/)
    expect(() => buildCopyFrom({ ...spec, delimiter: "'" as never })).toThrow(/delimiter/)
  })
})

describe('parseCsvSample', () => {
  it('reads quoted fields with delimiters, quotes and line breaks, CRLF, and a BOM', () => {
    const text = '\ufeffid,name\r\n1,"Smith, ""J"""\r\n2,"two\nlines"\n3,\n'
    expect(parseCsvSample(text, ',', { maxRows: 10, complete: true }).rows).toEqual([
      ['id', 'name'],
      ['1', 'Smith, "J"'],
      ['2', 'two\nlines'],
      ['3', ''],
    ])
  })

  it('leaves out a record cut by the end of a sample, and keeps a last line without a line end in a whole file', () => {
    expect(parseCsvSample('a;b\n1;"cut', ';', { maxRows: 10, complete: false })).toEqual({ rows: [['a', 'b']], truncated: true })
    expect(parseCsvSample('a;b\n1;2', ';', { maxRows: 10, complete: true })).toEqual({ rows: [['a', 'b'], ['1', '2']], truncated: false })
    expect(parseCsvSample('a\n1\n2\n3\n', ',', { maxRows: 2, complete: true })).toEqual({ rows: [['a'], ['1']], truncated: true })
  })
})

describe('columnNamesFromHeader', () => {
  it('names blanks, numbers repeats and cuts long names to 63 bytes', () => {
    expect(columnNamesFromHeader([' id ', '', 'name', 'name', 'ü'.repeat(40)])).toEqual(['id', 'column_2', 'name', 'name_2', 'ü'.repeat(31)])
  })
})
