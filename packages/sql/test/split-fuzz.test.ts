import { describe, expect, it } from 'vitest'
import { splitStatementsByLexer } from '../src/index.js'
import { splitSqlStatements } from '../src/parser-entry.js'

/** A small deterministic PRNG (mulberry32), so failures reproduce. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const VALUES = ["'a;b'", "'it''s'", "E'x\\';y'", '$$p;q$$', '$t$ $$; $t$', '"c;d"', "U&'\\00e9;'", '1', 'null', "'é😀;'", 'x::text']
const GAPS = [' ', '\n', ' /* ; /* ; */ */ ', ' -- ; comment\n', '\t', '\r\n']

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!
}

describe('lexer and parser agree on generated SQL', () => {
  it('splits 300 generated scripts identically', async () => {
    const next = random(20261121)
    for (let n = 0; n < 300; n++) {
      const statements = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
        const columns = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, VALUES) + pick(next, GAPS) + 'as ' + '"c' + n + '"')
        return `select${pick(next, GAPS)}${columns.join(',' + pick(next, GAPS))}`
      })
      const sql = pick(next, GAPS) + statements.join(pick(next, GAPS) + ';' + pick(next, GAPS)) + pick(next, [';', '', ' ;;'])
      const parsed = await splitSqlStatements(sql)
      expect(parsed.error, sql).toBeUndefined()
      const lexed = splitStatementsByLexer(sql)
      expect(lexed, sql).toHaveLength(statements.length)
      expect(parsed.statements.map(({ text, start, end }) => ({ text, start, end })), sql).toEqual(lexed)
    }
  })
})
