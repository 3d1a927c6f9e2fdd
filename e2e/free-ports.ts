import { randomInt } from 'node:crypto'
import { listeningPorts } from '../apps/platform/test/support/listening-ports.mjs'

/**
 * A block of `size` consecutive ports nothing listens on, between 16000 and 19999: below the kernel's ephemeral
 * range (32768 and up), where any client socket may hold a port for a while, and below the server tests' blocks
 * (20000-31999), above the platform's defaults (15432, 15500...). The platform itself skips taken ports when it
 * gives projects theirs.
 */
export function freePortBlock(size: number): number {
  const listening = listeningPorts()
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const start = 16_000 + randomInt(Math.floor(4_000 / size)) * size
    if (!Array.from({ length: size }, (_, i) => start + i).some((port) => listening.has(port))) return start
  }
  throw new Error(`No block of ${size} free ports between 16000 and 19999`)
}
