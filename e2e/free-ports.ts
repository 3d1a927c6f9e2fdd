import { randomInt } from 'node:crypto'
import { listeningPorts } from '../apps/platform/test/support/listening-ports.mjs'

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
