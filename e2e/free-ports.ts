import fs from 'node:fs'
import { randomInt } from 'node:crypto'

/** TCP ports something listens on, read from the kernel's tables (synchronous: the config is loaded synchronously). */
function listeningPorts(): Set<number> {
  const ports = new Set<number>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = fs.readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/)
      if (state === '0A' && local) ports.add(Number.parseInt(local.split(':').at(-1)!, 16)) // 0A: LISTEN
    }
  }
  return ports
}

/**
 * A block of `size` consecutive ports nothing listens on, between 33000 and 39999 (below the kernel's ephemeral
 * range, above the server tests' blocks). The platform itself skips taken ports when it gives projects theirs.
 */
export function freePortBlock(size: number): number {
  const listening = listeningPorts()
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const start = 33_000 + randomInt(Math.floor(7_000 / size)) * size
    if (!Array.from({ length: size }, (_, i) => start + i).some((port) => listening.has(port))) return start
  }
  throw new Error(`No block of ${size} free ports between 33000 and 39999`)
}
