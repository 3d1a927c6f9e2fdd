import { describe, expect, it } from 'vitest'
import { LOG_QUERY_ILIKE_ERROR, LOG_QUERY_WITH_OR_SUBQUERY_ERROR } from '@stratum/contracts'
import { LogQueryError, translateLogQuery } from '../src/parser-entry.js'

const window = { projectRef: 'abcdefghijabcdefghij', start: '2026-01-01T00:00:00.000Z', end: '2026-01-02T00:00:00.000Z' }
const translate = (sql: string) => translateLogQuery(sql, window)
const refusal = async (sql: string) => {
  try {
    await translate(sql)
  } catch (error) {
    expect(error).toBeInstanceOf(LogQueryError)
    return (error as Error).message
  }
  return undefined
}
/** The platform's conditions, always the first parameters and the inner SELECT every query reads from. */
const SCOPE = 'FROM (SELECT id, timestamp, event_message, source, metadata FROM log_events WHERE project_ref = $1::text AND timestamp >= $2::timestamptz AND timestamp < $3::timestamptz'

describe('translateLogQuery: allowed forms', () => {
  it.each([
    "select timestamp, event_message from postgres_logs where regexp_contains(event_message, 'x') order by timestamp desc limit 100",
    'select count(*) as count from edge_logs',
    "select timestamp_trunc(timestamp, hour) as hour, count(*) from edge_logs group by hour order by hour",
    "select date_trunc('minute', timestamp) as t, count(*) from edge_logs group by 1 order by 1 desc",
    'select t.timestamp, m.identifier from edge_logs as t cross join unnest(metadata) as m',
    'select r.status_code from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as r where r.status_code >= 500',
    'select parsed.error_severity from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as parsed where parsed.error_severity in (\'ERROR\', \'FATAL\')',
    "select id, timestamp, event_message, log_attributes['parsed.error_severity'] as error_severity from logs where source = 'postgres_logs' order by timestamp desc limit 100",
    'select distinct source from logs',
    'select * from function_logs limit 5',
    "select event_message from edge_logs where event_message like '%GET%' and not (event_message like '%200%')",
    'select event_message from edge_logs where timestamp > timestamp_sub(current_timestamp(), interval 1 hour)',
    "select event_message from edge_logs where timestamp between '2026-01-01T01:00:00Z' and '2026-01-01T02:00:00Z'",
    'select lower(event_message), length(event_message), concat(event_message, "!") from edge_logs',
    'select event_message from edge_logs where metadata is not null order by timestamp asc nulls last limit 10 offset 5',
    'select count(distinct event_message) as n from edge_logs having count(*) > 0',
    'select unix_micros(timestamp) as us, cast(event_message as string) from edge_logs',
    'select `event_message` from edge_logs # a BigQuery comment',
    'select 1',
  ])('translates %s', async (sql) => {
    const { sql: out, params } = await translate(sql)
    if (/from/i.test(sql)) {
      expect(out).toContain(SCOPE)
      expect(params.slice(0, 3)).toEqual([window.projectRef, window.start, window.end])
    }
    expect(out).toMatch(/ LIMIT \d+/)
  })

  it('binds every value and caps the rows', async () => {
    const { sql, params } = await translate("select event_message from edge_logs where regexp_contains(event_message, 'err') limit 5000")
    expect(sql).toContain(' AND source = $4::text')
    expect(sql).toContain('strpos(l."event_message", $5::text) > 0')
    expect(sql).toMatch(/ LIMIT 1000$/)
    expect(params.slice(3)).toEqual(['edge_logs', 'err'])
  })

  it('answers a plain-text pattern with a substring test, and puts one in front of a pattern that requires a text', async () => {
    const plain = await translate("select event_message from edge_logs where regexp_contains(event_message, 'deadlock')")
    expect(plain.sql).toContain('(strpos(l."event_message", $5::text) > 0)')
    expect(plain.sql).not.toContain(' ~ ')
    const required = await translate("select event_message from edge_logs where regexp_contains(event_message, '^dead.*lockx?$')")
    expect(required.sql).toContain('(CASE WHEN strpos(l."event_message", $5::text) > 0 THEN l."event_message" ~ $6::text WHEN l."event_message" IS NOT NULL THEN false END)')
    expect(required.params.slice(4)).toEqual(['dead', '^dead.*lockx?$'])
    for (const pattern of ['(?i)deadlock', 'dead|lock', '[dD]eadlock', 'deadl{2}ock', '*deadlock', 'de.ad']) {
      const { sql } = await translate(`select event_message from edge_logs where regexp_contains(event_message, '${pattern}')`)
      expect(sql, pattern).not.toContain('strpos')
    }
  })

  it('orders by the timestamp itself where it can, so the time index serves order by timestamp desc limit n', async () => {
    const recent = await translate("select timestamp, event_message from postgres_logs where regexp_contains(event_message, 'x') order by timestamp desc limit 100")
    expect(recent.sql).toContain('floor(extract(epoch from l."timestamp") * 1000000)::float8 AS "timestamp"')
    expect(recent.sql).toMatch(/ ORDER BY l\."timestamp" DESC LIMIT 100$/)
    expect((await translate('select * from edge_logs order by 2')).sql).toMatch(/ ORDER BY l\."timestamp" LIMIT/)
    // Grouped or DISTINCT: ORDER BY must name what the select list has, so the position stays.
    expect((await translate('select timestamp_trunc(timestamp, minute) as m, count(*) from edge_logs group by m order by m desc')).sql).toMatch(/ GROUP BY 1 ORDER BY 1 DESC/)
    expect((await translate('select distinct timestamp from edge_logs order by timestamp')).sql).toMatch(/ ORDER BY 1 LIMIT/)
  })

  it('binds a metadata path once, so a select item and its GROUP BY are one expression to Postgres', async () => {
    const { sql, params } = await translate(
      'select response.status_code, count(*) as count from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as response group by response.status_code',
    )
    expect(sql).toContain('(l.metadata #> $5::text[]) AS "status_code"')
    expect(sql).toContain(' GROUP BY 1')
    expect(params.slice(4)).toEqual([['response', 'status_code']])
  })

  it('maps log_attributes keys onto metadata paths', async () => {
    const { sql, params } = await translate("select log_attributes['request.method'] as method from logs")
    expect(sql).toContain('(l.metadata #> $4::text[]) AS "method"')
    expect(params[3]).toEqual(['request', 'method'])
  })
})

describe('translateLogQuery: refusals', () => {
  it.each(['with a as (select 1) select * from a', 'select * from (select 1) x', 'select event_message from edge_logs where id in (select id from edge_logs)'])(
    'refuses WITH and subqueries with the spec text: %s',
    async (sql) => expect(await refusal(sql)).toBe(LOG_QUERY_WITH_OR_SUBQUERY_ERROR),
  )

  it('refuses ILIKE with the spec text', async () => {
    expect(await refusal("select * from edge_logs where event_message ilike '%a%'")).toBe(LOG_QUERY_ILIKE_ERROR)
    expect(LOG_QUERY_WITH_OR_SUBQUERY_ERROR).toBe('The parser does not yet support WITH and subquery statements.')
    expect(LOG_QUERY_ILIKE_ERROR).toBe('BigQuery does not support ILIKE. Use REGEXP_CONTAINS instead.')
  })

  it.each([
    ['a schema-qualified table', 'select * from public.users'],
    ['a catalog table', 'select * from pg_catalog.pg_authid'],
    ['an unknown table', 'select * from pg_shadow'],
    ['a second table', 'select * from edge_logs, postgres_logs'],
    ['a join on a condition', 'select * from edge_logs a join postgres_logs b on a.id = b.id'],
    ['a function not on the list', "select pg_read_file('/etc/passwd')"],
    ['pg_sleep in where', 'select event_message from edge_logs where pg_sleep(10) is null'],
    ['a schema-qualified function', 'select pg_catalog.now()'],
    ['a column not on the list', 'select project_ref from edge_logs'],
    ['a column of another table', 'select users.password from edge_logs'],
    ['a second statement', 'select 1; drop table log_events'],
    ['a write', 'delete from edge_logs'],
    ['DDL', 'drop table log_events'],
    ['UNION', 'select event_message from edge_logs union select event_message from postgres_logs'],
    ['a set-returning function in FROM', 'select * from edge_logs cross join generate_series(1, 1000000000) as g'],
    ['unnest of a non-metadata column', 'select * from edge_logs cross join unnest(event_message) as m'],
    ['a cast to an unknown type', 'select event_message::regclass from edge_logs'],
    ['a window function', 'select row_number() over () from edge_logs'],
    ['a non-numeric limit', "select event_message from edge_logs limit '1; drop table x'"],
    ['an expression limit', 'select event_message from edge_logs limit 1 + 1'],
    ['an order by position out of range', 'select event_message from edge_logs order by 5'],
    ['SELECT INTO', 'select event_message into copied from edge_logs'],
    ['FOR UPDATE', 'select event_message from edge_logs for update'],
    ['a positional parameter', 'select event_message from edge_logs where event_message = $1'],
    ['an unterminated comment', 'select 1 /* drop'],
    ['a bad interval', "select * from edge_logs where timestamp > timestamp_sub(now(), interval '1 hour; drop')"],
    ['a date part not on the list', 'select timestamp_trunc(timestamp, pg_sleep) from edge_logs'],
  ])('refuses %s', async (_what, sql) => {
    expect(await refusal(sql)).toBeTruthy()
  })
})

describe('translateLogQuery: injection through every clause is refused or neutralised', () => {
  const noTextOf = async (sql: string, ...fragments: string[]) => {
    const translated = await translate(sql)
    for (const fragment of fragments) expect(translated.sql).not.toContain(fragment)
    return translated
  }

  it('select list: an alias is quoted, a string is a parameter', async () => {
    const { sql, params } = await noTextOf('select \'x\'\'); drop table log_events; --\' as `a"; drop table t; --` from edge_logs', 'drop table log_events')
    expect(sql).toContain('AS "a""; drop table t; --"')
    expect(params).toContain("x'); drop table log_events; --")
  })

  it('where: a string with quotes stays one bound value', async () => {
    const { params } = await noTextOf("select event_message from edge_logs where event_message = 'a'' or project_ref <> ''x'", "' or project_ref")
    expect(params[params.length - 1]).toBe("a' or project_ref <> 'x")
  })

  it('where: a BigQuery double-quoted string with a backslash-escaped quote', async () => {
    const { params } = await noTextOf('select event_message from edge_logs where event_message = "a\\" or 1=1 --"', 'or 1=1')
    expect(params[params.length - 1]).toBe('a" or 1=1 --')
  })

  it('regexp pattern: bound, never inlined', async () => {
    const { params } = await noTextOf("select event_message from edge_logs where regexp_contains(event_message, '.*''); select pg_sleep(10); --')", 'pg_sleep')
    expect(params[params.length - 1]).toBe(".*'); select pg_sleep(10); --")
  })

  it('order by and group by: only positions, names and allowed expressions', async () => {
    expect(await refusal('select event_message from edge_logs order by pg_sleep(1)')).toMatch(/not supported/)
    expect(await refusal('select event_message, count(*) from edge_logs group by (select 1)')).toBe(LOG_QUERY_WITH_OR_SUBQUERY_ERROR)
    expect(await refusal('select event_message from edge_logs order by project_ref')).toMatch(/Unknown column/)
  })

  it('limit: a number only', async () => {
    expect(await refusal('select event_message from edge_logs limit (select 1)')).toBe(LOG_QUERY_WITH_OR_SUBQUERY_ERROR)
    expect(await refusal('select event_message from edge_logs limit -1')).toBeTruthy()
  })

  it('comments: code inside a comment never runs, a comment never hides the scope', async () => {
    const { sql } = await noTextOf('select event_message from edge_logs -- where true; drop table log_events\n', 'drop table')
    expect(sql).toContain(SCOPE)
    const hash = await noTextOf('select event_message from edge_logs # ; delete from log_events\n', 'delete')
    expect(hash.sql).toContain(SCOPE)
  })

  it('a metadata key with quotes is a bound path', async () => {
    const { sql, params } = await translate("select log_attributes['a''}; drop table t'] from logs")
    expect(params[3]).toEqual(["a'}; drop table t"])
    expect(sql).toContain('AS "a\'}; drop table t" FROM') // the name of the column, quoted as an identifier
  })

  it('an OR in where cannot widen the project or the window', async () => {
    const { sql } = await translate("select event_message from logs where source = 'x' or true")
    expect(sql).toContain(`${SCOPE}) AS l WHERE`)
  })
})
