import {
  FUNCTION_CALL_WARNING,
  getQueryWarning,
  isEmptySql,
  RUN_CONFIRMATION_QUESTION,
  splitStatementsByLexer,
  WRITE_OPERATION_WARNING,
} from '@stratum/sql'
import { PARSER_POSTGRES_VERSIONS, splitSqlStatements } from '@stratum/sql/parser'
import { describe, expect, it } from 'vitest'
import { SQL_TEMPLATES, TEMPLATE_GROUPS } from '../src/features/sql-panel/templates'

/** The templates that only read: they may ask about function calls, never about writes. */
const READ_ONLY = new Set(['list-tables-sizes', 'list-columns', 'table-row-counts', 'running-queries', 'list-policies'])

describe('SQL panel templates', () => {
  it('offers the templates a user expects, each with a title, a description and SQL', () => {
    const ids = SQL_TEMPLATES.map((t) => t.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(new Set(SQL_TEMPLATES.map((t) => t.title)).size).toBe(ids.length)
    for (const template of SQL_TEMPLATES) {
      expect(template.title.trim(), template.id).not.toBe('')
      expect(template.description.trim(), template.id).not.toBe('')
      expect(isEmptySql(template.sql), template.id).toBe(false)
      expect(TEMPLATE_GROUPS, template.id).toContain(template.group)
    }
    // Every group is offered, and the brief's kinds are all there.
    expect(new Set(SQL_TEMPLATES.map((t) => t.group))).toEqual(new Set(TEMPLATE_GROUPS))
    const all = SQL_TEMPLATES.map((t) => t.sql.toLowerCase()).join('\n')
    for (const piece of [
      'enable row level security',
      'for select\n  to authenticated',
      'for insert',
      'language plpgsql',
      'create or replace trigger',
      'using gin (details jsonb_path_ops)',
      'where not is_complete;',
      'create or replace view',
      'create materialized view',
      'pg_total_relation_size',
      'information_schema.columns',
      'pg_stat_activity',
      'count(*)',
    ]) {
      expect(all).toContain(piece)
    }
    // No template relies on a schema plain Postgres does not have.
    expect(all).not.toMatch(/\bauth\./)
  })

  it.each(SQL_TEMPLATES.map((t) => [t.id, t] as const))('%s goes through the warning gate with the spec texts', (_id, template) => {
    const warning = getQueryWarning(template.sql)
    if (READ_ONLY.has(template.id)) {
      // Reads run straight away, or ask only because they call catalog functions.
      if (warning) {
        expect(warning.kind).toBe('hasUnknownFunctions')
        expect(warning.message).toBe(FUNCTION_CALL_WARNING)
        expect(warning.writeKeywords).toEqual([])
      }
    } else {
      expect(warning?.kind).toBe('hasWriteOperation')
      expect(warning?.message).toBe(WRITE_OPERATION_WARNING)
    }
    if (warning) expect(warning.question).toBe(RUN_CONFIRMATION_QUESTION)
  })

  it.each(SQL_TEMPLATES.map((t) => [t.id, t] as const))('%s splits into statements with the Postgres 15, 16 and 17 grammars', async (_id, template) => {
    const byLexer = splitStatementsByLexer(template.sql)
    expect(byLexer.length).toBeGreaterThan(0)
    for (const version of PARSER_POSTGRES_VERSIONS) {
      const split = await splitSqlStatements(template.sql, { postgresVersion: version })
      expect(split.error, `${template.id} on Postgres ${version}`).toBeUndefined()
      expect(split.source).toBe('parser')
      // The grammar and the lexer agree on the boundaries (the server runs the parser's).
      expect(split.statements.map((s) => s.text)).toEqual(byLexer.map((s) => s.text))
    }
  })

  it('the simple reads run without a confirmation', () => {
    expect(getQueryWarning(SQL_TEMPLATES.find((t) => t.id === 'list-columns')!.sql)).toBeNull()
    expect(getQueryWarning(SQL_TEMPLATES.find((t) => t.id === 'list-policies')!.sql)).toBeNull()
  })
})
