import { describe, expect, it } from 'vitest'
import { readSqlScript, type ScriptItem } from '../../src/control/logical/sql-script-reader.js'

/** The script cut into pieces of `size` characters (bytes when `asBytes`), as a stream would. */
async function* pieces(script: string, size: number, asBytes = false): AsyncGenerator<Buffer | string> {
  if (asBytes) {
    const bytes = Buffer.from(script)
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
  } else {
    for (let at = 0; at < script.length; at += size) yield script.slice(at, at + size)
  }
}

/** Items with the COPY rows of each block joined, since how they are cut depends on the input. */
async function read(input: AsyncIterable<Buffer | string>): Promise<ScriptItem[]> {
  const items: ScriptItem[] = []
  for await (const item of readSqlScript(input)) {
    const last = items[items.length - 1]
    if (item.kind === 'copy-data' && last?.kind === 'copy-data') last.data += item.data
    else items.push({ ...item })
  }
  return items
}

const TRICKY = [
  '-- a comment; with a semicolon',
  "SELECT 'it''s; fine', E'back\\'slash; ok\\\\', \"odd;\"\"name\" FROM t; /* block; /* nested; */ still; */",
  'CREATE FUNCTION f() RETURNS text LANGUAGE plpgsql AS $fn$',
  'BEGIN',
  "  RETURN $$ inner; $$ || 'x'; -- not the end;",
  'END',
  '$fn$;',
  'SELECT $1, a$b$c, $_$;$_$ AS x;',
  '\\restrict key123',
  'COPY "public"."t" ("a", "b") FROM stdin;',
  'one\ttwo',
  '\\\\.\t\\N',
  'é ☃ 😀\t\\n',
  '\\.',
  '\\unrestrict key123',
  "SELECT 'unicode: Zoë — 日本語 — 😀;'",
  '',
].join('\n')

const EXPECTED: ScriptItem[] = [
  {
    kind: 'statement',
    line: 2,
    copyFromStdin: false,
    sql: "SELECT 'it''s; fine', E'back\\'slash; ok\\\\', \"odd;\"\"name\" FROM t;",
  },
  {
    kind: 'statement',
    line: 3,
    copyFromStdin: false,
    sql: "CREATE FUNCTION f() RETURNS text LANGUAGE plpgsql AS $fn$\nBEGIN\n  RETURN $$ inner; $$ || 'x'; -- not the end;\nEND\n$fn$;",
  },
  { kind: 'statement', line: 8, copyFromStdin: false, sql: 'SELECT $1, a$b$c, $_$;$_$ AS x;' },
  { kind: 'meta', line: 9, command: 'restrict', argument: 'key123' },
  { kind: 'statement', line: 10, copyFromStdin: true, sql: 'COPY "public"."t" ("a", "b") FROM stdin;' },
  { kind: 'copy-data', data: 'one\ttwo\n\\\\.\t\\N\né ☃ 😀\t\\n\n' },
  { kind: 'copy-end', line: 14 },
  { kind: 'meta', line: 15, command: 'unrestrict', argument: 'key123' },
  // The last statement has no semicolon: psql runs it all the same.
  { kind: 'statement', line: 16, copyFromStdin: false, sql: "SELECT 'unicode: Zoë — 日本語 — 😀;'" },
]

describe('readSqlScript', () => {
  it('splits statements where psql does: not in strings, identifiers, dollar quotes or comments', async () => {
    expect(await read(pieces(TRICKY, 1 << 20))).toEqual(EXPECTED)
  })

  it('gives the same items however the input is cut, even inside a UTF-8 character', async () => {
    for (const size of [1, 2, 3, 5, 7, 13, 64]) {
      expect(await read(pieces(TRICKY, size))).toEqual(EXPECTED)
      expect(await read(pieces(TRICKY, size, true))).toEqual(EXPECTED)
    }
  })

  it('passes COPY rows through in pieces, never beyond the end marker', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `${i}\trow ${i}\\t with tab`).join('\n') + '\n'
    const script = `COPY t (a, b) FROM stdin;\n${rows}\\.\nSELECT 1;\n`
    const items: ScriptItem[] = []
    for await (const item of readSqlScript(pieces(script, 1000, true))) items.push(item)
    const data = items.filter((item) => item.kind === 'copy-data')
    expect(data.length).toBeGreaterThan(10)
    expect(data.map((item) => item.data).join('')).toBe(rows)
    expect(items.at(-2)).toEqual({ kind: 'copy-end', line: 5002 })
    expect(items.at(-1)).toEqual({ kind: 'statement', sql: 'SELECT 1;', line: 5003, copyFromStdin: false })
  })

  it('reads CRLF line endings and a last "\\." without a newline', async () => {
    expect(await read(pieces('COPY t FROM STDIN;\r\na\r\n\\.\r\n\\connect other\r\n', 3))).toEqual([
      { kind: 'statement', sql: 'COPY t FROM STDIN;', line: 1, copyFromStdin: true },
      { kind: 'copy-data', data: 'a\r\n' },
      { kind: 'copy-end', line: 3 },
      { kind: 'meta', command: 'connect', argument: 'other', line: 4 },
    ])
    expect(await read(pieces('COPY t FROM stdin;\nx\n\\.', 2))).toEqual([
      { kind: 'statement', sql: 'COPY t FROM stdin;', line: 1, copyFromStdin: true },
      { kind: 'copy-data', data: 'x\n' },
      { kind: 'copy-end', line: 3 },
    ])
  })

  it('does not take COPY TO or a quoted "from stdin" for rows to read', async () => {
    const items = await read(pieces(`COPY t TO STDOUT;\nCOPY t ("from stdin") TO stdout;\nSELECT 'COPY x FROM stdin';\n`, 4))
    expect(items.map((item) => item.kind === 'statement' && item.copyFromStdin)).toEqual([false, false, false])
  })

  it('reports a truncated dump instead of running half a statement', async () => {
    await expect(read(pieces('SELECT 1;\nCREATE FUNCTION f() AS $$ BEGIN', 4))).rejects.toThrow(
      'The script ends inside a dollar quote opened in the statement at line 2 (the dump is truncated)',
    )
    await expect(read(pieces('COPY t FROM stdin;\n1\n2\n', 4))).rejects.toThrow('COPY data starting at line 2 has no end marker')
    await expect(read(pieces("SELECT 'abc", 4))).rejects.toThrow(/ends inside a single quote/)
  })

  it('refuses a backslash command inside a statement', async () => {
    await expect(read(pieces('SELECT 1 \\gexec\n', 100))).rejects.toThrow(
      'A psql backslash command inside the statement at line 1 is not supported (line 1)',
    )
  })
})
