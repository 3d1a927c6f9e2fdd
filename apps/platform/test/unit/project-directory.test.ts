import { describe, expect, it } from 'vitest'
import { ProjectDirectory, type GatewayProject } from '../../src/gateway/project-directory.js'

/**
 * The directory's reads racing its change notifications. A smoke run once lost a query: the project's status went
 * COMING_UP then ACTIVE_HEALTHY, the second change's read was handed the first change's read (still under way, so
 * COMING_UP), and the pools of a running project were ended while a request used them.
 */

type Subscriber = { notified: (payload: string) => void; listening: () => void; lost: () => void }

function fakeHub(): { hub: { subscribe: (channel: string, subscriber: Subscriber) => () => void }; notify: (ref: string) => void } {
  let subscriber: Subscriber | undefined
  return {
    hub: {
      subscribe: (_channel, s) => {
        subscriber = s
        s.listening()
        return () => {}
      },
    },
    notify: (ref) => subscriber!.notified(ref),
  }
}

/** A loader whose reads the test answers one by one, in the order it chooses. */
function manualLoader() {
  const reads: { ref: string; answer: (status: GatewayProject['status']) => void }[] = []
  const load = (ref: string) =>
    new Promise<GatewayProject | null>((resolve) => {
      reads.push({ ref, answer: (status) => resolve({ ref, status } as GatewayProject) })
    })
  return { load, reads }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('ProjectDirectory', () => {
  it('never hands a read that began before a change to a lookup made after it', async () => {
    const { hub, notify } = fakeHub()
    const { load, reads } = manualLoader()
    const directory = new ProjectDirectory(hub, load)
    const before = directory.get('p')
    notify('p')
    const after = directory.get('p')
    expect(reads).toHaveLength(2)
    reads[0]!.answer('COMING_UP')
    reads[1]!.answer('ACTIVE_HEALTHY')
    expect((await before)?.status).toBe('COMING_UP')
    expect((await after)?.status).toBe('ACTIVE_HEALTHY')
    // The latest read is the one kept.
    expect((await directory.get('p'))?.status).toBe('ACTIVE_HEALTHY')
    expect(reads).toHaveLength(2)
  })

  it('shares one read among lookups made between two changes', async () => {
    const { hub } = fakeHub()
    const { load, reads } = manualLoader()
    const directory = new ProjectDirectory(hub, load)
    const first = directory.get('p')
    const second = directory.get('p')
    expect(reads).toHaveLength(1)
    reads[0]!.answer('ACTIVE_HEALTHY')
    expect(await first).toBe(await second)
  })

  it('acts on settled facts only: of two quick changes, the read made after the last one decides', async () => {
    const { hub, notify } = fakeHub()
    const { load, reads } = manualLoader()
    const directory = new ProjectDirectory(hub, load)
    const seen: string[] = []
    directory.onSettled(
      async (ref, project) => {
        seen.push(`${ref}:${project?.status}`)
      },
      (error) => {
        throw error
      },
    )
    notify('p') // COMING_UP
    notify('p') // ACTIVE_HEALTHY
    expect(reads).toHaveLength(2)
    // The second read answers first; the first (older) read comes late, with the older status.
    reads[1]!.answer('ACTIVE_HEALTHY')
    await settle()
    reads[0]!.answer('COMING_UP')
    await settle()
    expect(seen).toEqual(['p:ACTIVE_HEALTHY'])
  })
})
