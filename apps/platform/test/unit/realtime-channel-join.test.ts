import { SignJWT } from 'jose'
import { describe, expect, it, vi } from 'vitest'
import { Channel, type ChannelSocket } from '../../src/services/realtime/channel.js'
import type { ProjectRealtime } from '../../src/services/realtime/project-realtime.js'
import type { GatewayProject } from '../../src/gateway/project-directory.js'

/*
 * A join ends before it is done when its socket closes (a settings change, a shutdown, the client going away) or a
 * new join of the same topic replaces it while the token is being checked. The channel must not be added to the
 * project then: it would be nobody's, keep the change stream (and its replication slot) running for good, and be sent
 * the topic's broadcasts on a closed socket.
 */

const JWT_SECRET = 'a-test-secret-of-at-least-thirty-two-characters'

async function anonToken(): Promise<string> {
  return new SignJWT({ role: 'anon' })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(JWT_SECRET))
}

describe('a realtime channel join', () => {
  it('adds nothing to the project when the channel ended while its token was checked', async () => {
    let projectRead!: (project: GatewayProject) => void
    const project = {
      ref: 'test',
      config: { private_only: false },
      gatewayProject: () => new Promise<GatewayProject>((resolve) => (projectRead = resolve)),
      addChannel: vi.fn(),
      removeChannel: vi.fn(),
      record: vi.fn(),
    }
    const sent: unknown[] = []
    const socket: ChannelSocket = { vsn: '1.0.0', defaultToken: await anonToken(), send: (frame) => sent.push(JSON.parse(String(frame))), forget: vi.fn(), hold: () => {}, release: () => {} }
    const channel = new Channel(socket, project as unknown as ProjectRealtime, 'realtime:room', '1', { config: {} })

    const joined = channel.join({ joinRef: '1', ref: '1', topic: 'realtime:room', event: 'phx_join', payload: { config: {} } })
    await vi.waitFor(() => expect(projectRead).toBeTypeOf('function'))
    // The socket closes mid-join: its channels end without a frame.
    channel.end()
    projectRead({ jwtSecret: JWT_SECRET, legacyEnabled: true } as GatewayProject)

    expect(await joined).toBe(false)
    expect(project.addChannel).not.toHaveBeenCalled()
    expect(sent).toEqual([])
  })
})
