/**
 * Runs the statement corpus (test/corpus/statements.ts) through every rule of packages/sql:
 * statement splitting (lexer and real parser), the run gate, destructive patterns, the
 * automatic row limit, parameters and the read-only escalation.
 */
import { describe, expect, it } from 'vitest'
import {
  applyAutoLimit,
  findDestructiveOperations,
  getQueryWarning,
  hasUpdateWithoutWhere,
  isDestructiveSql,
  needsWriteConnection,
  NO_ROW_LIMIT,
  parseParameters,
  shouldAppendLimit,
  splitStatementsByLexer,
} from '../src/index.js'
import { splitSqlStatements } from '../src/parser-entry.js'
import { CORPUS_GROUPS, STATEMENT_CORPUS, type CorpusEntry } from './corpus/statements.js'

const cases = STATEMENT_CORPUS.map((entry) => [`${entry.group}: ${entry.why}`, entry] as const)
const validCases = cases.filter(([, entry]) => !entry.invalid)
const invalidCases = cases.filter(([, entry]) => entry.invalid)

describe('the statement corpus', () => {
  it('holds at least 200 entries in named groups, each SQL once', () => {
    expect(STATEMENT_CORPUS.length).toBeGreaterThanOrEqual(200)
    for (const group of CORPUS_GROUPS) expect(group.entries.length, group.name).toBeGreaterThan(0)
    const seen = new Set<string>()
    for (const { sql } of STATEMENT_CORPUS) {
      expect(seen.has(sql), `duplicate entry: ${sql}`).toBe(false)
      seen.add(sql)
    }
  })

  it('covers every warning kind, destructive kind and limit outcome', () => {
    const warnings = new Set(STATEMENT_CORPUS.map((entry) => entry.expect.warning))
    expect([...warnings].sort()).toEqual(['hasUnknownFunctions', 'hasWriteOperation', null].sort())
    const kinds = new Set(STATEMENT_CORPUS.flatMap((entry) => entry.expect.destructive))
    expect([...kinds].sort()).toEqual(['alter-table-drop-column', 'delete', 'drop', 'truncate', 'update-without-where'])
    expect(STATEMENT_CORPUS.some((entry) => entry.expect.autoLimit100 === null)).toBe(true)
    expect(STATEMENT_CORPUS.some((entry) => entry.expect.autoLimit100 !== null)).toBe(true)
    expect(STATEMENT_CORPUS.some((entry) => entry.readOnlyError?.escalates)).toBe(true)
    expect(STATEMENT_CORPUS.some((entry) => entry.readOnlyError && !entry.readOnlyError.escalates)).toBe(true)
  })
})

describe('corpus: the rules', () => {
  it.each(cases)('%s', (_, entry) => {
    const { sql, expect: expected } = entry

    expect(splitStatementsByLexer(sql), 'statements').toHaveLength(expected.statements)

    const warning = getQueryWarning(sql)
    expect(warning?.kind ?? null, 'warning').toBe(expected.warning)
    if (expected.writeKeywords) expect(warning?.writeKeywords, 'write keywords').toEqual(expected.writeKeywords)
    if (expected.unknownFunctions) expect(warning?.unknownFunctions, 'unknown functions').toEqual(expected.unknownFunctions)

    expect(findDestructiveOperations(sql).map((operation) => operation.kind), 'destructive').toEqual(expected.destructive)
    expect(isDestructiveSql(sql), 'isDestructiveSql').toBe(expected.destructive.some((kind) => kind !== 'update-without-where'))
    expect(hasUpdateWithoutWhere(sql), 'hasUpdateWithoutWhere').toBe(expected.destructive.includes('update-without-where'))

    expectAutoLimit(entry)

    const parameters = parseParameters(sql)
    const expectedParameters = expected.parameters ?? []
    expect(parameters.map((parameter) => parameter.name), 'parameters').toEqual(expectedParameters.map((parameter) => parameter.name))
    expectedParameters.forEach((parameter, i) => expect(parameters[i], `parameter ${parameter.name}`).toMatchObject(parameter))

    if (entry.readOnlyError) {
      const { escalates, ...error } = entry.readOnlyError
      expect(needsWriteConnection(error), 'read-only escalation').toBe(escalates)
    }
  })
})

function expectAutoLimit({ sql, expect: expected }: CorpusEntry): void {
  if (expected.autoLimit100 === null) {
    expect(applyAutoLimit(sql, 100), 'auto limit').toEqual({ sql, autoLimit: undefined })
    expect(shouldAppendLimit(sql, 100)).toBe(false)
  } else {
    expect(applyAutoLimit(sql, 100), 'auto limit').toEqual({ sql: expected.autoLimit100, autoLimit: 100 })
    expect(shouldAppendLimit(sql, 100)).toBe(true)
    expect(applyAutoLimit(sql, 500).sql).toBe(expected.autoLimit100.replace(/ limit 100(?=[^]*$)/, ' limit 500'))
  }
  // "No limit" and zero are not positive: nothing is ever appended.
  expect(applyAutoLimit(sql, NO_ROW_LIMIT)).toEqual({ sql, autoLimit: undefined })
  expect(applyAutoLimit(sql, 0)).toEqual({ sql, autoLimit: undefined })
}

describe('corpus: the real parser and the lexer agree', () => {
  it.each(validCases)('%s', async (_, entry) => {
    const result = await splitSqlStatements(entry.sql)
    expect(result.error, 'the parser accepts the SQL').toBeUndefined()
    expect(result.statements, 'statements').toHaveLength(entry.expect.statements)
    expect(result.statements.map(({ text, start, end }) => ({ text, start, end }))).toEqual(splitStatementsByLexer(entry.sql))
    if (entry.expect.autoLimit100 !== null) {
      // The limited SQL must still be valid: the limit lands where the grammar takes it.
      const limited = await splitSqlStatements(entry.expect.autoLimit100)
      expect(limited.error, 'the limited SQL parses').toBeUndefined()
      expect(limited.statements).toHaveLength(1)
    }
  })

  it.each(invalidCases)('rejects (deliberately invalid) %s', async (_, entry) => {
    const result = await splitSqlStatements(entry.sql)
    expect(result.source).toBe('lexer')
    expect(result.error).toBeDefined()
    expect(result.statements).toHaveLength(entry.expect.statements)
  })
})
