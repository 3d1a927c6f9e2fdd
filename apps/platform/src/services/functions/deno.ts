import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(import.meta.url)

/** The Deno binary npm installs with the `deno` package (its platform package holds the executable). */
export function denoBinary(): string {
  const libc = process.platform === 'linux' ? '-glibc' : ''
  const pkg = require.resolve(`@deno/${process.platform}-${process.arch}${libc}/package.json`)
  return path.join(path.dirname(pkg), process.platform === 'win32' ? 'deno.exe' : 'deno')
}
