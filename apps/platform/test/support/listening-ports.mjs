import fs from 'node:fs'

/**
 * TCP ports something listens on, read from the kernel's tables: synchronous (test harnesses and Playwright's
 * config pick ports while loading) and needing no tool. Linux only; elsewhere the set is empty.
 */
export function listeningPorts() {
  const ports = new Set()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = fs.readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/)
      if (state === '0A' && local) ports.add(Number.parseInt(local.split(':').at(-1), 16)) // 0A: LISTEN
    }
  }
  return ports
}
