import { describe, expect, it } from 'vitest'
import { significantTokens, tokenize, type Token } from '../src/index.js'

/** [kind, text] of the meaningful tokens, for compact expectations. */
function code(sql: string, options = {}): Array<[string, string]> {
  return significantTokens(tokenize(sql, options)).map((t) => [t.kind, t.text])
}

function kindsOf(sql: string, options = {}): Array<[string, string]> {
  return tokenize(sql, options).filter((t) => t.kind !== 'whitespace').map((t) => [t.kind, t.text])
}

describe('tokenize', () => {
  it('covers the input exactly, with offsets that slice back to each token', () => {
    const sql = "select E'a\\'b', $x$ ; $x$, \"Q\"\"t\", 1.5e3 -- c\n/* a /* b */ c */ :p::int;"
    const tokens = tokenize(sql)
    expect(tokens.map((t) => t.text).join('')).toBe(sql)
    for (const t of tokens) expect(sql.slice(t.start, t.end)).toBe(t.text)
    tokens.slice(1).forEach((t, i) => expect(t.start).toBe(tokens[i]!.end))
  })

  it('reads plain strings with doubled quotes as one token', () => {
    expect(code("select 'it''s; drop table x'")).toEqual([
      ['word', 'select'],
      ['string', "'it''s; drop table x'"],
    ])
  })

  it('treats a backslash as ordinary in standard strings but as an escape in E strings', () => {
    expect(code("select 'a\\', 'b'")).toEqual([
      ['word', 'select'],
      ['string', "'a\\'"],
      ['punctuation', ','],
      ['string', "'b'"],
    ])
    expect(code("select E'a\\', 'b'")).toEqual([
      ['word', 'select'],
      ['string', "E'a\\', '"],
      // b' opens a bit-string literal, left unterminated.
      ['string', "b'"],
    ])
    expect(code("select e'\\\\' , 1")).toEqual([
      ['word', 'select'],
      ['string', "e'\\\\'"],
      ['punctuation', ','],
      ['number', '1'],
    ])
  })

  it('honours standard_conforming_strings off: backslashes escape in plain strings', () => {
    expect(code("select 'a\\'; drop'", { standardConformingStrings: false })).toEqual([
      ['word', 'select'],
      ['string', "'a\\'; drop'"],
    ])
    expect(code("select 'a\\'; drop'")).toEqual([
      ['word', 'select'],
      ['string', "'a\\'"],
      ['punctuation', ';'],
      ['word', 'drop'],
      ['string', "'"],
    ])
  })

  it('reads B, X, N and U& prefixed literals only at a token start', () => {
    expect(code("select B'1010', X'ff', N'n', U&'d\\0061t', U&\"d\\0061t\"")).toEqual([
      ['word', 'select'],
      ['string', "B'1010'"],
      ['punctuation', ','],
      ['string', "X'ff'"],
      ['punctuation', ','],
      ['string', "N'n'"],
      ['punctuation', ','],
      ['string', "U&'d\\0061t'"],
      ['punctuation', ','],
      ['quoted-identifier', 'U&"d\\0061t"'],
    ])
    // `nE` is an identifier, then a plain string follows: the backslash does not escape.
    expect(code("select nE'x\\' ")).toEqual([
      ['word', 'select'],
      ['word', 'nE'],
      ['string', "'x\\'"],
    ])
  })

  it('reads quoted identifiers with doubled quotes, keeping keywords inside them', () => {
    expect(code('select "drop ""table""" from "Users"')).toEqual([
      ['word', 'select'],
      ['quoted-identifier', '"drop ""table"""'],
      ['word', 'from'],
      ['quoted-identifier', '"Users"'],
    ])
  })

  it('nests block comments as Postgres does', () => {
    expect(kindsOf('/* outer /* inner */ still comment; drop */ select 1')).toEqual([
      ['block-comment', '/* outer /* inner */ still comment; drop */'],
      ['word', 'select'],
      ['number', '1'],
    ])
  })

  it('ends line comments at either line break', () => {
    expect(kindsOf('-- a; b\r\nselect 1 -- tail')).toEqual([
      ['line-comment', '-- a; b'],
      ['word', 'select'],
      ['number', '1'],
      ['line-comment', '-- tail'],
    ])
  })

  it('reads dollar quotes with and without tags, only closed by the same tag', () => {
    expect(code('select $$a;b$$, $fn$ $$ ; $other$ $fn$, $_1$x$_1$')).toEqual([
      ['word', 'select'],
      ['dollar-string', '$$a;b$$'],
      ['punctuation', ','],
      ['dollar-string', '$fn$ $$ ; $other$ $fn$'],
      ['punctuation', ','],
      ['dollar-string', '$_1$x$_1$'],
    ])
  })

  it('tells positional parameters from dollar quotes, and keeps $ inside identifiers', () => {
    expect(code('select $1, a$b, $2::int')).toEqual([
      ['word', 'select'],
      ['positional-parameter', '$1'],
      ['punctuation', ','],
      ['word', 'a$b'],
      ['punctuation', ','],
      ['positional-parameter', '$2'],
      ['operator', '::'],
      ['word', 'int'],
    ])
  })

  it('flags unterminated strings, identifiers, comments and dollar quotes, running to the end', () => {
    for (const [sql, kind] of [
      ["select 'abc; select 2", 'string'],
      ["select E'abc\\'", 'string'],
      ['select "abc', 'quoted-identifier'],
      ['select /* a /* b */ c', 'block-comment'],
      ['select $t$ body $t', 'dollar-string'],
    ] as const) {
      const last = tokenize(sql).at(-1) as Token
      expect(last.kind).toBe(kind)
      expect(last.unterminated).toBe(true)
      expect(last.end).toBe(sql.length)
    }
  })

  it('reads :name as a parameter but not casts, assignments or array slices', () => {
    expect(code('select :id, a::text, x := 1, arr[lo:hi], arr[1:n], (:b), =:c')).toEqual([
      ['word', 'select'],
      ['parameter', ':id'],
      ['punctuation', ','],
      ['word', 'a'],
      ['operator', '::'],
      ['word', 'text'],
      ['punctuation', ','],
      ['word', 'x'],
      ['operator', ':='],
      ['number', '1'],
      ['punctuation', ','],
      ['word', 'arr'],
      ['punctuation', '['],
      ['word', 'lo'],
      ['punctuation', ':'],
      ['word', 'hi'],
      ['punctuation', ']'],
      ['punctuation', ','],
      ['word', 'arr'],
      ['punctuation', '['],
      ['number', '1'],
      ['punctuation', ':'],
      ['word', 'n'],
      ['punctuation', ']'],
      ['punctuation', ','],
      ['punctuation', '('],
      ['parameter', ':b'],
      ['punctuation', ')'],
      ['punctuation', ','],
      ['operator', '='],
      ['parameter', ':c'],
    ])
  })

  it('splits comments out of operators the way the server does', () => {
    expect(kindsOf('select 1+-- c\n2, 3*/* d */4')).toEqual([
      ['word', 'select'],
      ['number', '1'],
      ['operator', '+'],
      ['line-comment', '-- c'],
      ['number', '2'],
      ['punctuation', ','],
      ['number', '3'],
      ['operator', '*'],
      ['block-comment', '/* d */'],
      ['number', '4'],
    ])
  })

  it('reads numbers in their Postgres forms', () => {
    expect(code('select 1, 1.5, .5, 1e-3, 0x1F, 1_000, 5.')).toEqual([
      ['word', 'select'],
      ['number', '1'],
      ['punctuation', ','],
      ['number', '1.5'],
      ['punctuation', ','],
      ['number', '.5'],
      ['punctuation', ','],
      ['number', '1e-3'],
      ['punctuation', ','],
      ['number', '0x1F'],
      ['punctuation', ','],
      ['number', '1_000'],
      ['punctuation', ','],
      ['number', '5.'],
    ])
  })

  it('reads an @set line as a directive only at the start of a line', () => {
    expect(kindsOf('@set id:int = 5\n  @set name = x;\nselect @abs, 1 @set')).toEqual([
      ['directive', '@set id:int = 5'],
      ['directive', '@set name = x'],
      ['punctuation', ';'],
      ['word', 'select'],
      ['operator', '@'],
      ['word', 'abs'],
      ['punctuation', ','],
      ['number', '1'],
      ['operator', '@'],
      ['word', 'set'],
    ])
  })

  it('accepts non-ASCII identifiers and keeps UTF-16 offsets for astral characters', () => {
    const sql = "select '😀', café from t"
    const tokens = significantTokens(tokenize(sql))
    expect(tokens.map((t) => t.text)).toEqual(['select', "'😀'", ',', 'café', 'from', 't'])
    expect(tokens[3]!.start).toBe(sql.indexOf('café'))
  })

  describe('bigquery dialect', () => {
    it('reads double quotes as strings and backticks as identifiers', () => {
      expect(code('select "with x", `select`, \'a\\\'b\' from t', { dialect: 'bigquery' })).toEqual([
        ['word', 'select'],
        ['string', '"with x"'],
        ['punctuation', ','],
        ['quoted-identifier', '`select`'],
        ['punctuation', ','],
        ['string', "'a\\'b'"],
        ['word', 'from'],
        ['word', 't'],
      ])
    })

    it('reads # comments, triple-quoted strings and unnested block comments', () => {
      expect(kindsOf('# with\nselect """a " with """ /* x /* y */ z', { dialect: 'bigquery' })).toEqual([
        ['line-comment', '# with'],
        ['word', 'select'],
        ['string', '"""a " with """'],
        ['block-comment', '/* x /* y */'],
        ['word', 'z'],
      ])
    })
  })
})
