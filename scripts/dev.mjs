// `npm run dev`: the platform (restarted by tsx on change) and the Vite dev server with hot reload.
import { spawn } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const children = [
  spawn('npx', ['tsx', 'watch', 'apps/platform/src/cli.ts', 'start'], { cwd: root, stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', 'apps/dashboard'], { cwd: root, stdio: 'inherit' }),
]
const stop = () => children.forEach((child) => child.kill('SIGTERM'))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
