import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import { Channel, type ChannelSocket } from './channel.js'
import { IDLE_TIMEOUT_MS, LIMIT_TEXTS } from './limits.js'
import type { ProjectRealtime } from './project-realtime.js'
import { decodeFrame, encodeText, ProtocolError, reply, type PhoenixMessage, type Vsn } from './protocol.js'

/**
 * One client connection: heartbeats, joins, and each message routed to its channel (docs/research/realtime-protocol.md
 * §1.4, §2, §7). Messages for one topic are handled in order, so a broadcast sent right after a join waits for the join.
 */
export class RealtimeSocket implements ChannelSocket {
  private channels = new Map<string, Channel>()
  /** Per topic, the work under way: the next message of the topic starts after it. */
  private queues = new Map<string, Promise<void>>()
  private idle: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    private readonly ws: WebSocket,
    readonly vsn: Vsn,
    readonly defaultToken: string,
    private readonly project: ProjectRealtime,
    /** The connection under the WebSocket, whose writes hold() and release() gather. */
    private readonly connection: Duplex,
  ) {
    project.sockets++
    ws.on('message', (data: Buffer, isBinary: boolean) => this.receive(data, isBinary))
    ws.on('close', () => this.teardown())
    ws.on('error', () => this.teardown())
    this.touch()
  }

  get projectRef(): string {
    return this.project.ref
  }

  /**
   * A frame to the client: counted in the project's messages (usage), heartbeat replies aside. A Buffer goes as a
   * binary frame unless `text`: a text frame encoded once for many sockets (a change's payload) is not encoded again
   * for each.
   */
  send(frame: string | Buffer, text = typeof frame === 'string'): void {
    if (this.write(frame, text)) this.project.messages++
  }

  /** Writes wait until release() (Node's cork: counted, so the WebSocket's own cork inside a send still works). */
  hold(): void {
    this.connection.cork()
  }

  release(): void {
    this.connection.uncork()
  }

  private write(frame: string | Buffer, text = typeof frame === 'string'): boolean {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return false
    this.ws.send(frame, { binary: !text })
    return true
  }

  forget(channel: Channel): void {
    if (this.channels.get(channel.topic) === channel) this.channels.delete(channel.topic)
  }

  /** Phoenix closes a socket that sent nothing for a minute. */
  private touch(): void {
    clearTimeout(this.idle)
    this.idle = setTimeout(() => this.ws.close(1000, 'heartbeat timeout'), IDLE_TIMEOUT_MS)
    this.idle.unref()
  }

  private receive(data: Buffer, isBinary: boolean): void {
    this.touch()
    let message: PhoenixMessage
    try {
      message = decodeFrame(this.vsn, data, isBinary)
    } catch (error) {
      if (error instanceof ProtocolError) {
        this.project.log.debug({ ref: this.project.ref, err: error }, 'realtime: a frame was not understood')
        return
      }
      throw error
    }
    if (message.topic === 'phoenix' && message.event === 'heartbeat') {
      this.write(encodeText(this.vsn, reply(message, 'ok', {})))
      return
    }
    this.project.messages++
    const previous = this.queues.get(message.topic) ?? Promise.resolve()
    const next = previous
      .then(() => this.route(message))
      .catch((error: Error) => this.project.log.warn({ err: error, ref: this.project.ref, topic: message.topic }, 'realtime: a message failed'))
    this.queues.set(message.topic, next)
    void next.finally(() => {
      if (this.queues.get(message.topic) === next) this.queues.delete(message.topic)
    })
  }

  private async route(message: PhoenixMessage): Promise<void> {
    if (this.closed) return
    if (message.event === 'phx_join') return this.join(message)
    const channel = this.channels.get(message.topic)
    // Phoenix ignores what carries an older join's ref; anything for a topic not joined is an unmatched topic.
    if (channel && (message.joinRef === null || message.joinRef === channel.joinRef)) return channel.handle(message)
    if (message.event === 'phx_leave') return this.send(encodeText(this.vsn, reply(message, 'ok', {})))
    if (!channel) this.send(encodeText(this.vsn, { ...reply(message, 'error', { reason: 'unmatched topic' }), joinRef: null }))
  }

  private async join(message: PhoenixMessage): Promise<void> {
    if (!message.topic.startsWith('realtime:')) {
      this.send(encodeText(this.vsn, { ...reply(message, 'error', { reason: 'unmatched topic' }), joinRef: null }))
      return
    }
    // A second join of a joined topic replaces the first (phx_close for the old one).
    this.channels.get(message.topic)?.close()
    const refuse = (reason: string) => {
      this.send(encodeText(this.vsn, reply(message, 'error', { reason })))
      this.project.record({ level: 'error', event: 'join_refused', message: reason, errorCode: reason.split(':')[0], topic: message.topic.slice('realtime:'.length) })
    }
    if (this.channels.size >= this.project.limits.maxChannelsPerClient) return refuse(`ChannelRateLimitReached: ${LIMIT_TEXTS.channels}`)
    if (!this.project.joins.take()) {
      refuse(`ClientJoinRateLimitReached: ${LIMIT_TEXTS.joins}`)
      this.ws.close(1001, LIMIT_TEXTS.joins)
      return
    }
    const channel = new Channel(this, this.project, message.topic, message.joinRef, message.payload)
    this.channels.set(message.topic, channel)
    if (!(await channel.join(message))) this.forget(channel)
  }

  /** The socket is gone: its channels leave (presence leaves are told to the others) without a frame. */
  private teardown(): void {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.idle)
    for (const channel of [...this.channels.values()]) channel.end()
    this.channels.clear()
    this.project.sockets--
  }

  /** Closes the connection (the project stopped, the platform shuts down). */
  close(code: number, reason: string): void {
    this.ws.close(code, reason)
  }
}
