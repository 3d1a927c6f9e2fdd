// `npm test`: every tier, in two stages whose jobs run side by side.
//
// Run one after the other, the tiers leave this 2-core machine part idle: the server tier keeps it 82% busy, the
// browser tier 71% (one Chromium, one platform; vmstat, measured). Side by side they fill it. First the static
// checks, the unit tier and the build (the browser tier serves the built dashboard and platform, and the server tier
// must not see dist/ half-written); then, if all of those passed, the server and browser tiers together. A failed
// job never stops its neighbour: the run reports every failure it finds.
//
// Each output line carries its job's name; a summary with each job's duration ends the run.
import { spawn } from 'node:child_process'

const STAGES = [
  [
    { name: 'typecheck', script: 'typecheck' },
    { name: 'lint', script: 'lint' },
    { name: 'unit', script: 'test:unit' },
    { name: 'build', script: 'build' },
  ],
  [
    { name: 'server', script: 'test:server' },
    { name: 'browser', script: 'test', workspace: 'e2e' },
  ],
]

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const width = Math.max(...STAGES.flat().map((job) => job.name.length))
const results = []

/** Runs one npm script with each line of its output prefixed; resolves with its exit code and duration. */
function run(job) {
  const started = Date.now()
  const args = ['run', '--silent', job.script, ...(job.workspace ? ['-w', job.workspace] : [])]
  const child = spawn(npm, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env })
  const prefix = `[${job.name.padEnd(width)}] `
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let pending = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk) => {
      const lines = (pending + chunk).split('\n')
      pending = lines.pop()
      if (lines.length) out.write(lines.map((line) => prefix + line).join('\n') + '\n')
    })
    stream.on('end', () => {
      if (pending) out.write(prefix + pending + '\n')
    })
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ name: job.name, code: code ?? 1, signal, seconds: (Date.now() - started) / 1000 }))
  })
}

// Ctrl-C or CI's SIGTERM reaches the whole process group; the jobs stop their own platforms.
let interrupted = false
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (interrupted = true))

const runStarted = Date.now()
for (const [index, stage] of STAGES.entries()) {
  const stageResults = await Promise.all(stage.map(run))
  results.push(...stageResults)
  const failed = stageResults.filter((result) => result.code !== 0)
  if (failed.length || interrupted) {
    if (index < STAGES.length - 1) console.error(`\nnpm test: ${failed.map((r) => r.name).join(', ') || 'interrupted'} failed; the later stage (${STAGES.slice(index + 1).flat().map((j) => j.name).join(', ')}) did not run.`)
    break
  }
}

const minutes = (seconds) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`
console.log('\nnpm test:')
for (const result of results) console.log(`  ${result.name.padEnd(width)}  ${minutes(result.seconds).padStart(6)}  ${result.code === 0 ? 'passed' : `FAILED (${result.signal ?? `exit ${result.code}`})`}`)
console.log(`  ${'total'.padEnd(width)}  ${minutes((Date.now() - runStarted) / 1000).padStart(6)}`)
const ok = results.length === STAGES.flat().length && results.every((result) => result.code === 0)
process.exit(ok ? 0 : 1)
