// `npm start`: build the dashboard when its sources are newer than the build, then run the platform
// in this same process (so signals reach it directly).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const dist = path.join(root, 'apps/dashboard/dist/index.html')
const sources = ['apps/dashboard/src', 'apps/dashboard/public', 'apps/dashboard/index.html', 'apps/dashboard/vite.config.ts', 'packages/contracts/src']

function newestChange(entry) {
  const full = path.join(root, entry)
  if (!fs.existsSync(full)) return 0
  const stat = fs.statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(stat.mtimeMs, ...fs.readdirSync(full).map((name) => newestChange(path.join(entry, name))))
}

const builtAt = fs.existsSync(dist) ? fs.statSync(dist).mtimeMs : 0
if (builtAt < Math.max(...sources.map(newestChange))) {
  console.log('Building the dashboard...')
  execFileSync('npm', ['run', 'build', '-w', 'apps/dashboard'], { cwd: root, stdio: 'inherit' })
}

// Under npm, a kill -9 of npm itself would leave this process behind holding the port:
// stop cleanly when our parent goes away.
if (process.env.npm_lifecycle_event === 'start') {
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM')
  }, 1000).unref()
}

process.argv = [process.argv[0], path.join(root, 'apps/platform/bin/stratum.mjs'), 'start']
await import('../apps/platform/bin/stratum.mjs')
