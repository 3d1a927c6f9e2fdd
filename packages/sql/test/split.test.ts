import { describe, expect, it } from 'vitest'
import { isEmptySql, splitStatementsByLexer } from '../src/index.js'
import { loadSqlParser, splitSqlStatements } from '../src/parser-entry.js'

const texts = (sql: string) => splitStatementsByLexer(sql).map((s) => s.text)

/** Valid SQL with every trap for a splitter; the real parser is the judge of each boundary. */
const CORPUS = [
  'select 1',
  'select 1; select 2;',
  "select 'a;b'; select 'it''s;'",
  "select E'it\\'s; still' ; select 2",
  "select e'\\\\'; select 3",
  'select "semi;colon" from "x""y;"; select 4',
  'select 1 -- comment; not a boundary\n; select 2',
  'select /* a /* nested; */ still; */ 1; select 2',
  'select $$a;b$$; select $fn$ ; $$ ; $fn$',
  "create function f() returns int language plpgsql as $body$ begin return 1; end; $body$; select f()",
  'create function f() returns int language sql begin atomic select 1; select 2; end; select 3',
  'create or replace procedure p() language sql begin atomic insert into t values (1); select case when true then 1 else 2 end; end; call p()',
  'create rule r as on insert to t do also (insert into a values (1); insert into b values (2)); select 5',
  "select 'é;' ; select '😀;'; select 'ü'",
  '  \n select 1 ;\n\n  select 2  \n',
  'select 1; -- trailing comment only',
  '-- leading\nselect 1; /* before two */ select 2',
  ';;select 1;;;select 2;;',
  "copy t from stdin; select 'x'",
  "do $$ begin raise notice 'a;b'; end $$; select 1",
  'select B\'10\', X\'ff\', U&"d\\0061t" from t; select 2',
  'with a as (select 1) select * from a; values (1), (2)',
]

describe('splitStatementsByLexer', () => {
  it('never splits inside strings, identifiers, comments or dollar quotes', () => {
    expect(texts("select 'a;b'; select \"c;d\"; select $q$e;f$q$; select 1 /* g; */")).toEqual([
      "select 'a;b'",
      'select "c;d"',
      'select $q$e;f$q$',
      'select 1 /* g; */',
    ])
  })

  it('keeps E-strings with escaped quotes whole', () => {
    expect(texts("select E'don\\'t; stop'; select 2")).toEqual(["select E'don\\'t; stop'", 'select 2'])
  })

  it('keeps comments before a statement with that statement and drops comment-only remainders', () => {
    expect(texts('select 1; -- about two\nselect 2; -- the end')).toEqual(['select 1', '-- about two\nselect 2'])
  })

  it('returns offsets into the original text', () => {
    const sql = "  select 'é'; \n select 2 ;  "
    const statements = splitStatementsByLexer(sql)
    expect(statements).toEqual([
      { text: "select 'é'", start: 2, end: 12 },
      { text: 'select 2', start: 16, end: 24 },
    ])
    for (const s of statements) expect(sql.slice(s.start, s.end)).toBe(s.text)
  })

  it('keeps SQL-standard function bodies (BEGIN ATOMIC ... END) in one statement', () => {
    expect(texts('create function f() returns int language sql begin atomic select 1; select case when x then 1 end; end; select 2')).toEqual([
      'create function f() returns int language sql begin atomic select 1; select case when x then 1 end; end',
      'select 2',
    ])
  })

  it('does not treat BEGIN as a block outside a function definition', () => {
    expect(texts('begin; select 1; commit')).toEqual(['begin', 'select 1', 'commit'])
  })

  it('keeps semicolons inside parentheses (rule actions) and survives a stray closing paren', () => {
    expect(texts('create rule r as on insert to t do (insert into a values (1); notify x); select 1')).toHaveLength(2)
    expect(texts('select 1); select 2')).toEqual(['select 1)', 'select 2'])
  })

  it('handles unterminated input: the open literal swallows the rest', () => {
    expect(texts("select 1; select 'abc; select 2")).toEqual(['select 1', "select 'abc; select 2"])
    expect(texts('select 1; /* open comment; select 2')).toEqual(['select 1'])
    expect(texts('select $$ open; select 2')).toEqual(['select $$ open; select 2'])
  })

  it('returns nothing for empty, blank or comment-only SQL', () => {
    expect(texts('')).toEqual([])
    expect(texts(' ;\n; ')).toEqual([])
    expect(texts('-- only\n/* comments */')).toEqual([])
  })

  it('leaves @set directive lines out of statement edges', () => {
    expect(splitStatementsByLexer('@set id = 1\nselect :id;\n@set x = 2')).toEqual([{ text: 'select :id', start: 12, end: 22 }])
  })
})

describe('isEmptySql', () => {
  it('is true only when there is no code at all', () => {
    expect(isEmptySql('')).toBe(true)
    expect(isEmptySql('  \n\t')).toBe(true)
    expect(isEmptySql('-- select 1\n/* select 2 */')).toBe(true)
    expect(isEmptySql('@set a = 1')).toBe(true)
    expect(isEmptySql(';')).toBe(false)
    expect(isEmptySql("''")).toBe(false)
  })
})

describe('splitSqlStatements (real Postgres parser)', () => {
  it('loads the parser for every supported major', async () => {
    for (const version of [15, 16, 17] as const) await loadSqlParser(version)
  })

  it('agrees with the lexer on every statement of a tricky corpus', async () => {
    for (const sql of CORPUS) {
      const result = await splitSqlStatements(sql)
      expect(result.error, sql).toBeUndefined()
      expect(result.source, sql).toBe('parser')
      expect(result.statements.map(({ text, start, end }) => ({ text, start, end })), sql).toEqual(splitStatementsByLexer(sql))
    }
  })

  it('reports node types and UTF-16 offsets after multi-byte text', async () => {
    const sql = "select '😀é'; delete from t where a = 'ü'; update t set a = 1"
    const { statements, source } = await splitSqlStatements(sql)
    expect(source).toBe('parser')
    expect(statements.map((s) => s.nodeType)).toEqual(['SelectStmt', 'DeleteStmt', 'UpdateStmt'])
    expect(statements.map((s) => s.text)).toEqual(["select '😀é'", "delete from t where a = 'ü'", 'update t set a = 1'])
    for (const s of statements) expect(sql.slice(s.start, s.end)).toBe(s.text)
  })

  it('parses around :name parameters and @set directives', async () => {
    const sql = "@set id:int = 3\nselect * from :tbl where id = :id and note <> ':x'; select :id"
    const result = await splitSqlStatements(sql)
    expect(result.source).toBe('parser')
    expect(result.statements.map((s) => s.text)).toEqual(["select * from :tbl where id = :id and note <> ':x'", 'select :id'])
  })

  it('falls back to the lexer on a syntax error and points at it in UTF-16 units', async () => {
    const sql = "select '😀é'; selec 2; select 3"
    const result = await splitSqlStatements(sql)
    expect(result.source).toBe('lexer')
    expect(result.statements.map((s) => s.text)).toEqual(["select '😀é'", 'selec 2', 'select 3'])
    expect(result.error).toEqual({ message: 'syntax error at or near "selec"', position: sql.indexOf('selec '), statementIndex: 1 })
  })

  it('reports an error at the end of incomplete input against the last statement', async () => {
    const sql = 'select 1; select * from'
    const result = await splitSqlStatements(sql)
    expect(result.error).toMatchObject({ message: 'syntax error at end of input', position: sql.length, statementIndex: 1 })
    expect(result.statements).toHaveLength(2)
  })

  it('reports an unterminated string with the lexer statements still usable', async () => {
    const sql = "select 1;\nselect 'open"
    const result = await splitSqlStatements(sql)
    expect(result.error?.message).toMatch(/unterminated quoted string/)
    expect(result.error?.position).toBe(sql.indexOf("'open"))
    expect(result.statements.map((s) => s.text)).toEqual(['select 1', "select 'open"])
  })

  it('uses the grammar of the chosen Postgres major', async () => {
    // MERGE ... RETURNING arrived in Postgres 17.
    const sql = 'merge into t using s on t.id = s.id when matched then delete returning *'
    expect((await splitSqlStatements(sql, { postgresVersion: 17 })).error).toBeUndefined()
    expect((await splitSqlStatements(sql, { postgresVersion: 15 })).error?.message).toMatch(/syntax error/)
  })

  it('relies on the lexer when standard_conforming_strings is off', async () => {
    const result = await splitSqlStatements("select 'a\\'; b'; select 2", { standardConformingStrings: false })
    expect(result.source).toBe('lexer')
    expect(result.statements.map((s) => s.text)).toEqual(["select 'a\\'; b'", 'select 2'])
  })

  it('returns no statements for blank input without loading anything', async () => {
    expect(await splitSqlStatements('  \n ')).toEqual({ statements: [], source: 'lexer' })
    expect((await splitSqlStatements('-- nothing')).statements).toEqual([])
  })
})
