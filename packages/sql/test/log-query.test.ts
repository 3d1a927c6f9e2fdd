import { describe, expect, it } from 'vitest'
import { getLogQueryError, LOG_QUERY_ILIKE_ERROR, LOG_QUERY_WITH_OR_SUBQUERY_ERROR } from '../src/index.js'

describe('getLogQueryError', () => {
  it('uses the spec messages', () => {
    expect(LOG_QUERY_WITH_OR_SUBQUERY_ERROR).toBe('The parser does not yet support WITH and subquery statements.')
    expect(LOG_QUERY_ILIKE_ERROR).toBe('BigQuery does not support ILIKE. Use REGEXP_CONTAINS instead.')
  })

  it.each([
    'select timestamp, event_message from edge_logs',
    "select count(*) from edge_logs where regexp_contains(event_message, 'ilike')",
    'select id from edge_logs where event_message like "%with%"',
    "select id from edge_logs -- with ilike (select 1)\n",
    'select id from edge_logs # with (select 1)\n where a in (1, 2)',
    'select `with`, `ilike` from t',
    "select t.timestamp from edge_logs as t cross join unnest(metadata) as m where m.x = '(select 1)'",
  ])('accepts %s', (sql) => {
    expect(getLogQueryError(sql)).toBeUndefined()
  })

  it.each([
    'with x as (select 1) select * from x',
    'WITH x AS (select 1) select * from x',
    'select * from (select id from edge_logs)',
    'select id from edge_logs where id in (select id from other)',
    'select exists(select 1)',
    'select * from ((select 1))',
  ])('rejects WITH and subqueries: %s', (sql) => {
    expect(getLogQueryError(sql)).toBe(LOG_QUERY_WITH_OR_SUBQUERY_ERROR)
  })

  it.each(["select * from edge_logs where event_message ilike '%error%'", 'select 1 where a ILIKE b'])('rejects ILIKE: %s', (sql) => {
    expect(getLogQueryError(sql)).toBe(LOG_QUERY_ILIKE_ERROR)
  })

  it('reports WITH and subqueries before ILIKE when both occur', () => {
    expect(getLogQueryError("with x as (select 1) select * from x where a ilike 'b'")).toBe(LOG_QUERY_WITH_OR_SUBQUERY_ERROR)
  })
})
