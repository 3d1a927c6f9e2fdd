// `npm test`: every tier, its jobs run side by side as soon as what they need has passed.
//
// Run one after the other, the tiers leave this 2-core machine part idle: the server tier keeps it 82% busy, the
// browser tier 71% (one Chromium, one platform; vmstat, measured). Side by side they fill it. The static checks, the
// unit tier and the build start together; the browser tier, the longest job and so the run's critical path, starts as
// soon as the build it serves has passed (measured: 1:45 before the static checks end); the server tier once the
// static checks, the unit tier and the build have passed (it must not see dist/ half-written, and a red static check
// makes its eleven minutes worth little). A failed job never stops a job that does not need it: the run reports every
// failure it finds.
//
// Each output line carries its job's name; a summary with each job's duration ends the run.
import { spawn } from 'node:child_process'

const JOBS = [
  { name: 'typecheck', script: 'typecheck' },
  { name: 'lint', script: 'lint' },
  { name: 'unit', script: 'test:unit' },
  { name: 'build', script: 'build' },
  { name: 'server', script: 'test:server', after: ['typecheck', 'lint', 'unit', 'build'] },
  { name: 'browser', script: 'test', workspace: 'e2e', after: ['build'] },
]

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const width = Math.max(...JOBS.map((job) => job.name.length))

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
    child.on('close', (code, signal) => resolve({ name: job.name, code: code ?? 1, signal, seconds: (Date.now() - started) / 1000, from: (started - runStarted) / 1000 }))
  })
}

// Ctrl-C or CI's SIGTERM reaches the whole process group; the jobs stop their own platforms.
let interrupted = false
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (interrupted = true))

const runStarted = Date.now()
/** Each job's run, started once every job it needs has passed; a job whose prerequisite failed is skipped. */
const runs = new Map()
function schedule(job) {
  if (!runs.has(job.name)) {
    const needs = (job.after ?? []).map((name) => schedule(JOBS.find((other) => other.name === name)))
    runs.set(
      job.name,
      Promise.all(needs).then((done) => {
        const failed = done.filter((result) => result.code !== 0).map((result) => result.name)
        if (failed.length || interrupted) return { name: job.name, code: 1, skipped: failed.length ? `${failed.join(', ')} failed` : 'interrupted', seconds: 0 }
        return run(job)
      }),
    )
  }
  return runs.get(job.name)
}
const results = await Promise.all(JOBS.map(schedule))

// Whole seconds first: 59.6 s reads 1:00, not 0:60.
const minutes = (seconds) => {
  const whole = Math.round(seconds)
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}
console.log('\nnpm test:')
for (const result of results) console.log(`  ${result.name.padEnd(width)}  ${minutes(result.seconds).padStart(6)}  ${result.from === undefined ? '' : `(from ${minutes(result.from)}) `}${result.skipped ? `not run (${result.skipped})` : result.code === 0 ? 'passed' : `FAILED (${result.signal ?? `exit ${result.code}`})`}`)
console.log(`  ${'total'.padEnd(width)}  ${minutes((Date.now() - runStarted) / 1000).padStart(6)}`)
const ok = results.every((result) => result.code === 0)
process.exit(ok ? 0 : 1)
