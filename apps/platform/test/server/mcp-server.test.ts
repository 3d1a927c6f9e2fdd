import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, startTestPlatform, tokenFor, waitForStatus, type TestPlatform } from './harness.js'

/*
 * The official Supabase MCP server (@supabase/mcp-server-supabase from the npm registry, unmodified),
 * started as an AI agent's host starts it, with `--api-url` at the platform and a personal access
 * token; its tools called as an agent would.
 */
const CLI = path.resolve(import.meta.dirname, '../../../../node_modules/@supabase/mcp-server-supabase/dist/cli.js')

let t: TestPlatform
let client: Client
let ref: string
let token: string

beforeAll(async () => {
  t = await startTestPlatform()
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/v1/organizations', { token })).body[0].slug
  ref = (await api(t, 'POST', '/v1/projects', { token }, { name: 'Agent', organization_slug: slug, db_pass: 'agent-db-password-1' })).body.ref
  await waitForStatus(t, ref, { token }, 'ACTIVE_HEALTHY', 60_000)
  client = new Client({ name: 'stratum-test', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--access-token', token, '--api-url', t.platform.url, '--features', 'account,database,debugging,development,functions,branching,storage'],
      stderr: 'pipe',
    }),
  )
}, 120_000)
afterAll(async () => {
  await client?.close()
  await t?.cleanup()
})

/**
 * Tools that cannot pass yet, each with why. Everything else the server lists must succeed.
 * (`get_project_url` passes: the client builds the hosted URL itself, so its answer is not ours.)
 */
const NOT_YET: Record<string, string> = {}

it('runs every tool it lists against the platform, but those waiting for their issue', async () => {
  const { tools } = await client.listTools()
  const names = tools.map((tool) => tool.name)
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args })
    const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('\n')
    return { ok: !result.isError, text }
  }
  const outcomes: Record<string, { ok: boolean; text: string }> = {}
  const attempt = async (name: string, args: Record<string, unknown>) => (outcomes[name] = await call(name, args))
  const json = (name: string) => JSON.parse(outcomes[name]!.text)
  const projectStatus = async () => JSON.parse((await call('get_project', { id: ref })).text).status as string
  const until = async (status: string) => {
    for (let i = 0; i < 600 && (await projectStatus()) !== status; i++) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await projectStatus()).toBe(status)
  }

  await attempt('list_organizations', {})
  const slug = json('list_organizations').organizations[0].id as string
  await attempt('get_organization', { id: slug })
  await attempt('list_projects', {})
  await attempt('get_project', { id: ref })
  await attempt('get_cost', { type: 'project', organization_id: slug })
  const projectCost = json('get_cost')
  await attempt('confirm_cost', { type: 'project', recurrence: projectCost.recurrence, amount: projectCost.amount })
  const costId = json('confirm_cost').confirmation_id ?? json('confirm_cost').confirm_cost_id ?? json('confirm_cost')
  await attempt('create_project', { name: 'By agent', region: 'us-east-1', organization_id: slug, confirm_cost_id: costId })
  await attempt('list_tables', { project_id: ref, schemas: ['public'] })
  await attempt('list_extensions', { project_id: ref })
  await attempt('apply_migration', { project_id: ref, name: 'create_notes', query: 'create table notes (id bigint primary key, body text)' })
  await attempt('list_migrations', { project_id: ref })
  await attempt('execute_sql', { project_id: ref, query: "insert into notes values (1, 'from an agent') returning body" })
  await attempt('query_logs', { project_id: ref, sql: 'select 1' })
  await attempt('get_advisors', { project_id: ref, type: 'security' })
  await attempt('get_project_url', { project_id: ref })
  await attempt('get_publishable_keys', { project_id: ref })
  await attempt('generate_typescript_types', { project_id: ref })
  await attempt('deploy_edge_function', {
    project_id: ref,
    name: 'hello-agent',
    entrypoint_path: 'index.ts',
    files: [{ name: 'index.ts', content: 'Deno.serve(() => Response.json({ hello: "agent" }))' }],
  })
  await attempt('list_edge_functions', { project_id: ref })
  await attempt('get_edge_function', { project_id: ref, function_slug: 'hello-agent' })
  await attempt('list_storage_buckets', { project_id: ref })
  await attempt('get_storage_config', { project_id: ref })
  await attempt('update_storage_config', { project_id: ref, config: { fileSizeLimit: 1_000_000, features: { imageTransformation: { enabled: false }, s3Protocol: { enabled: false } } } })
  // Branching needs the Pro plan; a branch's cost is confirmed on its own.
  expect((await api(t, 'PUT', `/platform/organizations/${slug}/billing/subscription`, { token }, { plan: 'pro' })).status).toBe(200)
  await attempt('get_cost', { type: 'branch', organization_id: slug })
  const branchCost = json('get_cost')
  await attempt('confirm_cost', { type: 'branch', recurrence: branchCost.recurrence, amount: branchCost.amount })
  const branchCostId = json('confirm_cost').confirmation_id ?? json('confirm_cost').confirm_cost_id ?? json('confirm_cost')
  await attempt('create_branch', { project_id: ref, name: 'feature', confirm_cost_id: branchCostId })
  const branchId = json('create_branch').id as string
  const branchReady = async () => {
    await attempt('list_branches', { project_id: ref })
    const branch = json('list_branches').branches?.find((row: { id: string }) => row.id === branchId) ?? (json('list_branches') as { id: string }[]).find?.((row) => row.id === branchId)
    return branch?.preview_project_status === 'ACTIVE_HEALTHY' && branch?.status === 'MIGRATIONS_PASSED'
  }
  for (let i = 0; i < 1200 && !(await branchReady()); i++) await new Promise((resolve) => setTimeout(resolve, 100))
  expect(await branchReady()).toBe(true)
  for (const name of ['merge_branch', 'rebase_branch', 'reset_branch']) await attempt(name, { branch_id: branchId })
  for (let i = 0; i < 1200 && !(await branchReady()); i++) await new Promise((resolve) => setTimeout(resolve, 100))
  await attempt('delete_branch', { branch_id: branchId })
  await attempt('pause_project', { project_id: ref })
  await until('INACTIVE')
  await attempt('restore_project', { project_id: ref })
  await until('ACTIVE_HEALTHY')

  // What the calls did, seen from the platform's side.
  expect((await call('list_tables', { project_id: ref, schemas: ['public'] })).text).toContain('notes')
  expect(outcomes.execute_sql!.text).toContain('from an agent')
  expect(json('list_migrations').migrations.map((migration: { name: string }) => migration.name)).toEqual(['create_notes'])
  expect(outcomes.get_edge_function!.text).toContain('hello-agent')
  expect(JSON.parse((await call('get_storage_config', { project_id: ref })).text).fileSizeLimit).toBe(1_000_000)

  const untried = names.filter((name) => !(name in outcomes))
  expect(untried).toEqual([])
  const failed = Object.entries(outcomes).filter(([name, outcome]) => !outcome.ok && !(name in NOT_YET))
  expect(failed.map(([name, outcome]) => `${name}: ${outcome.text.slice(0, 200)}`)).toEqual([])
  const passing = names.filter((name) => outcomes[name]!.ok)
  console.log(`official MCP server ${names.length} tools: ${passing.length} pass; waiting for their issue: ${Object.keys(NOT_YET).join(', ')}`)
  // The tools said to wait really fail today: when their issue lands this list must shrink.
  expect(Object.keys(NOT_YET).filter((name) => outcomes[name]!.ok)).toEqual([])
}, 120_000)
