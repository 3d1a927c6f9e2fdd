// The real platform for the end-to-end tests: a fresh data directory, real Postgres, the built dashboard.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startOpenAiCompatibleServer } from '../apps/platform/test/support/openai-compatible-server.mjs'
import { e2eGitHubRepos, startGitHubLoopback } from './github-loopback.mjs'

// The config names the directory so that tests can reach into it (e.g. to make an operation fail
// for real); otherwise a fresh temporary one.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-e2e-'))
fs.rmSync(dataDir, { recursive: true, force: true })
fs.mkdirSync(dataDir, { recursive: true })
fs.chmodSync(dataDir, 0o755)
process.on('exit', () => {
  // As root each project had OS users of its own: removed with the data directory, or they pile up.
  if (process.getuid?.() === 0) {
    const projects = path.join(dataDir, 'projects')
    for (const ref of fs.existsSync(projects) ? fs.readdirSync(projects) : []) {
      for (const user of [`stratum-${ref}`, `stratum-fn-${ref}`]) {
        try {
          execFileSync('userdel', [user], { stdio: 'ignore' })
        } catch {
          // not created, or already gone
        }
      }
    }
  }
  // Renamed at once and removed by a detached rm: unlinking every project's files here (tens of thousands, up to
  // 0.7 ms each on this disk) outlasted Playwright's 15 s graceful shutdown, which then killed this process half-way
  // and left the directory behind.
  const trash = `${dataDir}.discarded-${process.pid}`
  try {
    fs.renameSync(dataDir, trash)
    spawn('rm', ['-rf', trash], { detached: true, stdio: 'ignore' }).unref()
  } catch {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})

/**
 * The AI model's scripted answers (tests/sql-ai.spec.ts relies on them). An inline edit's
 * instruction (the 'Instruction:' line the platform sends) picks the answer: 'fail' -> a 500 with
 * 'The model is overloaded', 'count' -> a count of public.todos, 'slow' -> an answer after 1.5 s,
 * anything else -> 'select 1 as answer;'. A title request (its system prompt asks for a JSON
 * "title") is named after the SQL: 'title_fail' in it -> a 500, 'todos' -> 'Todo count', else
 * 'Scripted query title'.
 */
async function scriptedAiReply({ messages, body }) {
  if (Array.isArray(body.tools) && body.tools.some((tool) => tool.function?.name === 'display_query')) return scriptedAssistantReply(messages)
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n')
  const user = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n')
  if (/"title"/.test(system)) {
    if (user.includes('title_fail')) return { status: 500, message: 'The title model is down' }
    const title = user.includes('todos') ? 'Todo count' : 'Scripted query title'
    return JSON.stringify({ title, description: `Scripted description: ${title.toLowerCase()}.` })
  }
  const instruction = (/Instruction:\s*(.*)/.exec(user)?.[1] ?? user).toLowerCase()
  if (instruction.includes('fail')) return { status: 500, message: 'The model is overloaded' }
  if (instruction.includes('count')) return 'select count(*) from public.todos;'
  if (instruction.includes('slow')) {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    return 'select now() as slow_answer;'
  }
  return 'select 1 as answer;'
}

const ASSISTANT_FUNCTION_CODE = `Deno.serve(() => new Response(JSON.stringify({ hello: 'from the assistant' }), { headers: { 'Content-Type': 'application/json' } }))\n`

/**
 * The assistant's scripted turns (tests/assistant.spec.ts), chosen by the last question: 'chart' ->
 * display_query of the todos by state, run at once, as a chart; 'function' -> display_edge_function
 * 'hello-assistant'; 'links' -> a javascript: link and an https link; 'slow' -> text after 1.5 s;
 * 'refuse' -> the model's 400 with its message; 'fail once' -> that 400 the first time, an answer when asked again.
 * Once a tool has answered, a closing sentence.
 */
/** Questions the scripted assistant failed once already. */
const failedOnce = new Set()

async function scriptedAssistantReply(messages) {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user')
  const question = (messages[lastUser]?.content ?? '').toLowerCase()
  const toolAnswered = messages.slice(lastUser + 1).some((m) => m.role === 'tool')
  if (toolAnswered) return 'There it is: run it again whenever you like.'
  if (question.includes('chart')) {
    return {
      toolCalls: [
        {
          name: 'display_query',
          chunkDelayMs: 40,
          arguments: {
            label: 'Todos by state',
            sql: "select case when done then 'done' else 'open' end as state, count(*)::int as total from public.todos group by 1 order by 1",
            view: 'chart',
            xAxis: 'state',
            yAxis: 'total',
            runQuery: true,
          },
        },
      ],
    }
  }
  if (question.includes('function')) return { toolCalls: [{ name: 'display_edge_function', arguments: { name: 'hello-assistant', code: ASSISTANT_FUNCTION_CODE } }] }
  // 'fail once': the first time a question is asked, the model's 400; asked again (Retry), an answer.
  if (question.includes('fail once')) {
    if (!failedOnce.has(question)) {
      failedOnce.add(question)
      return { status: 400, message: 'The scripted model fails this once' }
    }
    return 'Answered on the second try.'
  }
  // A 400 is not retried by the AI SDK: the error reaches the panel at once.
  if (question.includes('refuse')) return { status: 400, message: 'The scripted model refuses this request' }
  if (question.includes('links')) return 'Two links: [run this](javascript:alert(document.cookie)) and [the docs](https://example.com/docs).'
  if (question.includes('slow')) {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    return 'That took a while.'
  }
  return 'Hello from the scripted assistant. Ask me for a **chart** or a function.'
}

// The AI model: a loopback OpenAI-compatible server (the one test double the tests allow, docs/ARCHITECTURE.md "Tests").
const ai = await startOpenAiCompatibleServer({ reply: scriptedAiReply })
// GitHub's REST API: acme/shop (branches main and feature-x) read with the token ghp_e2e (github-loopback.mjs).
const github = await startGitHubLoopback({ repos: e2eGitHubRepos() })

Object.assign(process.env, {
  STRATUM_AI_PROVIDER: 'openai-compatible',
  STRATUM_AI_BASE_URL: ai.url,
  STRATUM_AI_MODEL: 'e2e-scripted-model',
  STRATUM_AI_API_KEY: 'e2e-ai-key',
  STRATUM_GITHUB_API_URL: github.url,
  // Every spec is the same owner: more AI calls a minute than the default allows.
  STRATUM_AI_RATE_LIMIT: '1000',
  STRATUM_DATA_DIR: dataDir,
  STRATUM_ADMIN_EMAIL: 'owner@example.com',
  STRATUM_ADMIN_PASSWORD: 'owner-password-1',
  // Chosen free by playwright.config.ts; these defaults serve `node server.mjs` run by hand.
  STRATUM_PLATFORM_DB_PORT: process.env.STRATUM_PLATFORM_DB_PORT || '31500',
  STRATUM_PROJECT_PORT_START: process.env.STRATUM_PROJECT_PORT_START || '31501',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'fatal',
  // Every spec signs in as the owner: more than the default 10 a minute from one address.
  STRATUM_LOGIN_RATE_LIMIT: '200',
  // Usage sampled every 2 s (the resource warnings spec charts two samples and waits for a busy one). Disks keep the
  // product's 30 s: a quota change measures its project at once, and walking every project's files every 2 s cost
  // the whole run its CPU for that one spec's sake.
  STRATUM_USAGE_INTERVAL_MS: '2000',
  // No spare copy of the template after each creation: about 45 copies of 1,000 files each would add their disk
  // writes to the server tier's, which runs beside this one. instance-templates.test.ts tests the spares.
  STRATUM_SPARE_INSTANCES: '0',
  // Database webhooks deliver to a receiver on loopback (database-webhooks.spec.ts).
  STRATUM_NET_ALLOW_PRIVATE_HOSTS: 'true',
})
process.argv = [process.argv[0], 'stratum', 'start']
await import('../apps/platform/bin/stratum.mjs')
