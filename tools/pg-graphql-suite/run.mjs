#!/usr/bin/env node
// Runs pg_graphql's own regression suite (supabase/pg_graphql: test/sql/*.sql, test/expected/*.out) against
// Stratum's GraphQL engine (apps/platform/src/services/graphql/engine), UNCHANGED files, read from a checkout:
//
//   npx tsx tools/pg-graphql-suite/run.mjs --suite /path/to/pg_graphql --database postgres://postgres:pw@127.0.0.1:5432/postgres [--only name] [--verbose]
//
// For each file, in a scratch database of its own (created and dropped as the given superuser):
//   - the fixture's SQL (test/fixtures.sql without `create extension pg_graphql`) and then every statement of
//     the file run in ONE session, in order, as psql would (psql meta-commands are skipped);
//   - a statement that calls graphql.resolve(...) has each call's arguments evaluated by PostgreSQL (the same
//     named and positional forms pg_graphql accepts), the document sent to our engine IN THE SAME SESSION STATE
//     (inside the file's open transaction, as the session's current role, the schemas on its search_path), and the
//     call replaced by our answer as a jsonb parameter: the rest of the statement (jsonb_pretty, -> 'data', ...)
//     runs in PostgreSQL as written;
//   - the value is compared with the block psql printed for that statement in test/expected/<name>.out (found by
//     its echoed text), as JSON (key order ignored); errors are compared by message only.
// Prints each file's pass count, the total, and the failures grouped by cause.
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { isDeepStrictEqual } from 'node:util'

const require = createRequire(new URL('../../apps/platform/package.json', import.meta.url))
const pg = require('pg')
const { GraphqlEngine } = await import('../../apps/platform/src/services/graphql/engine/engine.ts')

const args = process.argv.slice(2)
const option = (name) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? args[index + 1] : undefined
}
const suite = option('suite')
const database = option('database') ?? process.env.DATABASE_URL
const only = option('only')
const verbose = args.includes('--verbose')
if (!suite || !database) {
  console.error('usage: run.mjs --suite <pg_graphql checkout> --database <superuser connection string> [--only <name>] [--verbose]')
  process.exit(2)
}

/** Splits SQL text into statements: quotes, dollar quotes, comments and parentheses respected. */
export function splitStatements(text) {
  const statements = []
  let start = -1
  let index = 0
  const begin = () => {
    if (start < 0) start = index
  }
  while (index < text.length) {
    const char = text[index]
    const next = text[index + 1]
    if (char === '-' && next === '-') {
      const end = text.indexOf('\n', index)
      index = end < 0 ? text.length : end + 1
      continue
    }
    if (char === '/' && next === '*') {
      const end = text.indexOf('*/', index + 2)
      index = end < 0 ? text.length : end + 2
      continue
    }
    if (start < 0 && char === '\\') {
      // A psql meta-command: the rest of the line.
      const end = text.indexOf('\n', index)
      index = end < 0 ? text.length : end + 1
      continue
    }
    if (/\s/.test(char)) {
      index++
      continue
    }
    begin()
    if (char === "'" || char === '"') {
      index = skipQuoted(text, index, char)
      continue
    }
    if (char === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(index))
      if (tag) {
        const end = text.indexOf(tag[0], index + tag[0].length)
        index = end < 0 ? text.length : end + tag[0].length
        continue
      }
    }
    if (char === ';') {
      statements.push(text.slice(start, index + 1))
      start = -1
    }
    index++
  }
  if (start >= 0 && text.slice(start).trim()) statements.push(text.slice(start))
  return statements
}

function skipQuoted(text, index, quote) {
  let at = index + 1
  while (at < text.length) {
    if (text[at] === quote) {
      if (text[at + 1] === quote) at += 2
      else return at + 1
    } else if (quote === "'" && text[at] === '\\' && text[index - 1] && /[eE]/.test(text[index - 1])) at += 2
    else at++
  }
  return at
}

/** The `graphql.resolve(` calls of a statement: [start, end) of each call and its argument text. */
function resolveCalls(statement) {
  const calls = []
  const pattern = /graphql\.resolve\s*\(/gi
  let match
  while ((match = pattern.exec(statement))) {
    let depth = 1
    let at = match.index + match[0].length
    const argsStart = at
    while (at < statement.length && depth > 0) {
      const char = statement[at]
      if (char === "'" || char === '"') at = skipQuoted(statement, at, char)
      else if (char === '$' && /^\$[A-Za-z_]*\$/.test(statement.slice(at))) {
        const tag = /^\$[A-Za-z_]*\$/.exec(statement.slice(at))[0]
        const end = statement.indexOf(tag, at + tag.length)
        at = end < 0 ? statement.length : end + tag.length
      } else {
        if (char === '(') depth++
        if (char === ')') depth--
        at++
      }
    }
    calls.push({ start: match.index, end: at, args: statement.slice(argsStart, at - 1) })
    pattern.lastIndex = at
  }
  return calls
}

const normalize = (text) =>
  text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .join('\n')

/** The value psql printed after the statement's echo in the .out file (a one-column block), or an ERROR. */
function expectedAfter(outText, statement, from) {
  const needle = normalize(statement)
  const at = outText.indexOf(needle, from)
  if (at < 0) return { found: false, next: from }
  const after = at + needle.length
  const lines = outText.slice(after).split('\n').slice(1)
  if (lines[0]?.startsWith('ERROR:')) return { found: true, error: lines[0].replace(/^ERROR:\s+/, ''), next: after }
  const dashes = lines.findIndex((line) => /^-+(\+-+)*$/.test(line))
  if (dashes !== 1) return { found: false, next: after }
  const rows = []
  let current = ''
  for (const line of lines.slice(2)) {
    if (/^\(\d+ rows?\)$/.test(line)) break
    const body = line.slice(1)
    if (/\+$/.test(body)) current += body.replace(/\s*\+$/, '') + '\n'
    else {
      rows.push(current + body.trimEnd())
      current = ''
    }
  }
  return { found: true, value: rows.join('\n'), next: after }
}

const asJson = (value) => {
  if (value === null || value === undefined) return null
  // psql prints booleans as t and f.
  if (typeof value === 'boolean') return value ? 't' : 'f'
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return value.trim()
  }
}

/** pg_graphql's errors carry a message only. */
const comparable = (body) => {
  if (!body || typeof body !== 'object' || !Array.isArray(body.errors)) return body
  return { ...body, errors: body.errors.map((error) => ({ message: error.message })) }
}

function cause(expected, actual) {
  const expectedError = expected?.errors?.[0]?.message
  const actualError = actual?.errors?.[0]?.message
  if (expectedError && !actualError) return 'an error pg_graphql gives is not given'
  if (!expectedError && actualError) {
    if (/^Unknown field "(__schema|__type)"/.test(expectedError ?? '')) return 'introspection disabled in pg_graphql'
    return `our error: ${actualError.replace(/"[^"]*"/g, '"…"').slice(0, 70)}`
  }
  if (expectedError && actualError) return 'different error message'
  if (expected?.data && actual?.data) return 'different data'
  return 'different answer'
}

async function runFile(name, fixtures, admin) {
  const sqlText = fs.readFileSync(path.join(suite, 'test/sql', `${name}.sql`), 'utf8')
  const outPath = path.join(suite, 'test/expected', `${name}.out`)
  if (!fs.existsSync(outPath)) return { name, cases: [], skipped: 'no expected output' }
  const outText = normalize(fs.readFileSync(outPath, 'utf8'))
  const scratch = `pgg_${name.replace(/[^a-z0-9_]/gi, '_').slice(0, 40)}`
  await admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`)
  await admin.query(`CREATE DATABASE "${scratch}"`)
  const url = new URL(database)
  url.pathname = `/${scratch}`
  const client = new pg.Client({ connectionString: url.toString() })
  client.on('error', () => {})
  client.on('notice', () => {})
  await client.connect()
  const cases = []
  try {
    // pg_regress's session settings, which the expected output was printed with.
    await client.query(`SET timezone TO 'PST8PDT'; SET datestyle TO 'Postgres, MDY'`)
    await client.query('CREATE SCHEMA IF NOT EXISTS graphql')
    for (const statement of fixtures) await client.query(statement).catch(() => {})
    await client.query(`CREATE SCHEMA IF NOT EXISTS stratum_suite;
      CREATE OR REPLACE FUNCTION stratum_suite.args(query text DEFAULT NULL, variables jsonb DEFAULT '{}', "operationName" text DEFAULT NULL, extensions jsonb DEFAULT NULL)
        RETURNS TABLE (query text, variables jsonb, operation_name text) LANGUAGE sql AS $$ SELECT query, variables, "operationName" $$;
      GRANT USAGE ON SCHEMA stratum_suite TO PUBLIC;
      CREATE OR REPLACE FUNCTION graphql.resolve(query text DEFAULT NULL, variables jsonb DEFAULT '{}', "operationName" text DEFAULT NULL, extensions jsonb DEFAULT NULL)
        RETURNS jsonb LANGUAGE sql AS $$ SELECT NULL::jsonb $$;`)
    const session = { connect: async () => Object.assign(client, { release() {} }) }
    const engine = new GraphqlEngine(session, [], { warn() {} }, { nested: true, introspectionByDefault: false })
    let cursor = 0
    for (const statement of splitStatements(sqlText)) {
      const calls = resolveCalls(statement)
      if (calls.length === 0) {
        // In a transaction, a statement that fails only here (a role this cluster already has) must not abort the
        // rest of the file: each runs in a savepoint of its own.
        const guarded = client._txStatus === 'T' && !/^\s*(begin|commit|rollback|savepoint|release|end)\b/i.test(statement)
        if (guarded) await client.query('SAVEPOINT stratum_statement')
        const failed = await client.query(statement).then(() => false, () => true)
        if (guarded) await client.query(failed ? 'ROLLBACK TO SAVEPOINT stratum_statement' : 'RELEASE SAVEPOINT stratum_statement').catch(() => {})
        continue
      }
      const expected = expectedAfter(outText, statement, cursor)
      cursor = expected.next
      let actual
      try {
        const values = []
        let rewritten = ''
        let last = 0
        for (const call of calls) {
          const inTransaction = client._txStatus !== 'I'
          if (!inTransaction) await client.query('BEGIN')
          const { rows } = await client.query(`SELECT * FROM stratum_suite.args(${call.args})`)
          const body = await engine.handle({ query: rows[0].query, variables: rows[0].variables, operationName: rows[0].operation_name }, { role: '', claims: {} })
          if (!inTransaction) await client.query('COMMIT')
          values.push(JSON.stringify(comparable(body)))
          rewritten += `${statement.slice(last, call.start)}$${values.length}::jsonb`
          last = call.end
        }
        rewritten += statement.slice(last)
        const result = await client.query({ text: rewritten, values, rowMode: 'array' })
        actual = asJson(result.rows.map((row) => row[0]).join('\n'))
        if (result.rows.length === 1) actual = asJson(result.rows[0][0])
      } catch (error) {
        actual = { statementError: error.message }
      }
      if (!expected.found) {
        cases.push({ ok: false, cause: 'expected output not found in the .out file', statement })
        continue
      }
      const want = expected.error !== undefined ? { statementError: expected.error } : comparable(asJson(expected.value))
      const ok = isDeepStrictEqual(comparable(actual), want)
      cases.push({ ok, cause: ok ? null : cause(want, actual), statement, want, actual })
    }
  } finally {
    await client.end().catch(() => {})
    await admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`).catch(() => {})
  }
  return { name, cases }
}

const admin = new pg.Client({ connectionString: database })
await admin.connect()
const fixtures = splitStatements(fs.readFileSync(path.join(suite, 'test/fixtures.sql'), 'utf8')).filter((statement) => !/extension/i.test(statement))
const names = fs
  .readdirSync(path.join(suite, 'test/sql'))
  .filter((file) => file.endsWith('.sql'))
  .map((file) => file.slice(0, -4))
  .filter((name) => !only || name === only)
  .sort()
let passed = 0
let total = 0
let filesPassed = 0
const causes = new Map()
for (const name of names) {
  const result = await runFile(name, fixtures, admin)
  const good = result.cases.filter((item) => item.ok).length
  passed += good
  total += result.cases.length
  if (result.cases.length > 0 && good === result.cases.length) filesPassed++
  console.log(`${good === result.cases.length ? 'ok  ' : 'FAIL'} ${name}: ${good}/${result.cases.length}${result.skipped ? ` (${result.skipped})` : ''}`)
  for (const item of result.cases.filter((item) => !item.ok)) {
    const list = causes.get(item.cause) ?? []
    list.push(name)
    causes.set(item.cause, list)
    if (verbose) console.log(`  ${item.cause}\n  want ${JSON.stringify(item.want)?.slice(0, 600)}\n  got  ${JSON.stringify(item.actual)?.slice(0, 600)}`)
  }
}
await admin.end()
console.log(`\ngraphql.resolve calls matching pg_graphql's expected output: ${passed}/${total} (${total ? ((100 * passed) / total).toFixed(1) : 0}%); files fully passing: ${filesPassed}/${names.length}`)
console.log('failures by cause:')
for (const [text, files] of [...causes].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`  ${files.length}  ${text}  (${[...new Set(files)].slice(0, 8).join(', ')}${new Set(files).size > 8 ? ', …' : ''})`)
}
