import { createHash, randomUUID } from 'node:crypto'
import { readPermissions, writePermission, type Asker, type Extension } from './authorization.js'
import { readSubscription, SubscriptionParamsError, type ChangeSubscription } from './changes/filters.js'
import type { ClaimsGroup } from './changes/visibility.js'
import { readReplay, replayMessages, type ReplayRequest } from './replay.js'
import { CLIENT_PRESENCE_MAX_CALLS, CLIENT_PRESENCE_WINDOW_MS, LIMIT_TEXTS, WithinWindow } from './limits.js'
import type { ChannelMember } from './member.js'
import type { ProjectRealtime } from './project-realtime.js'
import { encodeText, isUserBroadcast, reply, type PhoenixMessage, type Vsn } from './protocol.js'
import { presentedToken, TokenError, verifyChannelToken, type ChannelClaims } from './tokens.js'

/** What a channel needs of its socket. */
export interface ChannelSocket {
  readonly vsn: Vsn
  /** The token the socket connected with (its key's role, or the bearer beside it). */
  readonly defaultToken: string
  /** A Buffer goes as a binary frame unless `text` (a text frame encoded once for many sockets). */
  send(frame: string | Buffer, text?: boolean): void
  /** Holds the socket's writes until release(): the frames sent meanwhile leave together (a delivery of changes). */
  hold(): void
  release(): void
  /** The channel ended (leave, shutdown): the socket forgets it. */
  forget(channel: Channel): void
}

interface ChannelConfig {
  self: boolean
  ack: boolean
  replicationReady: boolean
  /** broadcast.replay: a request, null without one, or the reason it cannot be read. */
  replay: ReplayRequest | null | string
  presenceKey: string
  presenceEnabled: boolean
  private: boolean
  /** postgres_changes exactly as sent: the join reply echoes them with their ids. */
  changes: Array<Record<string, unknown>>
}

/** A replay request the channel cannot serve: the join is refused with its message. */
class ReplayError extends Error {}

const object = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
/** Supabase reads booleans leniently: true/false, or the strings in any case. */
const flag = (value: unknown): boolean => value === true || (typeof value === 'string' && value.toLowerCase() === 'true')

/** The id the join reply gives a binding: stable for the same params, as Supabase's phash2 is. */
const bindingId = (params: Record<string, unknown>) => createHash('sha256').update(JSON.stringify(params)).digest().readUInt32BE(0) >>> 1

function readConfig(payload: Record<string, unknown>): ChannelConfig {
  const config = object(payload.config)
  const broadcast = object(config.broadcast)
  const presence = object(config.presence)
  const key = typeof presence.key === 'string' && presence.key ? presence.key : randomUUID()
  return {
    self: flag(broadcast.self),
    ack: flag(broadcast.ack),
    replicationReady: flag(broadcast.replication_ready),
    replay: readReplay(broadcast.replay),
    presenceKey: key,
    presenceEnabled: flag(presence.enabled),
    private: flag(config.private),
    changes: Array.isArray(config.postgres_changes) ? config.postgres_changes.filter((entry) => entry && typeof entry === 'object').map(object) : [],
  }
}

/** A joined `realtime:<name>` topic on one socket (docs/research/realtime-protocol.md §2-§7). */
export class Channel implements ChannelMember {
  readonly subtopic: string
  /** Public and private channels of the same name are separate topics. */
  readonly topicKey: string
  claims!: ChannelClaims
  subscriptions: ChangeSubscription[] = []
  private readonly config: ChannelConfig
  private readable = new Set<Extension>(['broadcast', 'presence'])
  private writable = new Map<Extension, Promise<boolean>>()
  private expiry: NodeJS.Timeout | undefined
  private readonly presenceCalls = new WithinWindow(CLIENT_PRESENCE_MAX_CALLS, CLIENT_PRESENCE_WINDOW_MS)
  private ended = false

  constructor(
    readonly socket: ChannelSocket,
    readonly project: ProjectRealtime,
    readonly topic: string,
    readonly joinRef: string | null,
    joinPayload: unknown,
  ) {
    this.subtopic = topic.slice('realtime:'.length)
    this.config = readConfig(object(joinPayload))
    this.topicKey = `${this.config.private ? 'private' : 'public'}:${this.subtopic}`
  }

  get isPrivate(): boolean {
    return this.config.private
  }

  get presenceKey(): string {
    return this.config.presenceKey
  }

  canRead(extension: Extension): boolean {
    return this.readable.has(extension)
  }

  /** The group this channel's changes are checked in: the same role and claims see the same rows. */
  claimsGroup(): ClaimsGroup {
    return { role: this.claims.role, claims: JSON.stringify(this.claims.claims) }
  }

  private get asker(): Asker {
    return { role: this.claims.role, claims: this.claims.claims as Record<string, unknown> }
  }

  /** The join: token, rights, the reply with the bindings' ids, then presence and postgres_changes set-up. */
  async join(message: PhoenixMessage): Promise<boolean> {
    const payload = object(message.payload)
    try {
      if (!this.subtopic) throw new TokenError('TopicNameRequired', 'You must provide a topic name')
      if (this.project.config.private_only && !this.config.private) throw new TokenError('PrivateOnly', LIMIT_TEXTS.privateOnly)
      // Replay reads the topic's stored broadcasts: private channels only (realtime-js refuses it on public ones too).
      if (typeof this.config.replay === 'string') throw new ReplayError(this.config.replay)
      if (this.config.replay && !this.config.private) throw new ReplayError('UnableToReplayMessages: Replay is only available on private channels')
      this.claims = await this.verify(presentedToken(payload.access_token ?? payload.user_token) ?? this.socket.defaultToken)
      if (this.config.private) {
        this.readable = await readPermissions(this.project.pool(), this.asker, this.subtopic, this.config.presenceEnabled ? ['broadcast', 'presence'] : ['broadcast'])
        if (!this.readable.size) throw new TokenError('Unauthorized', `You do not have permissions to read from this Channel topic: ${this.subtopic}`)
      }
    } catch (error) {
      const reason = error instanceof TokenError ? error.reason : error instanceof ReplayError ? error.message : `UnknownErrorOnChannel: ${(error as Error).message}`
      this.socket.send(encodeText(this.socket.vsn, reply(message, 'error', { reason })))
      this.project.record({ level: 'error', event: 'join_refused', message: reason, errorCode: error instanceof TokenError ? error.code : 'UnknownErrorOnChannel', topic: this.subtopic, role: this.claims?.role ?? null })
      return false
    }
    // The socket closed, or a new join of the topic replaced this one, while the token was checked: end() has run, and
    // a channel added now would be nobody's (it would keep the change stream, and its slot, running for good).
    if (this.ended) return false
    const bindings = this.config.changes.map((params) => ({ ...params, id: bindingId(params) }))
    this.socket.send(encodeText(this.socket.vsn, reply(message, 'ok', { postgres_changes: bindings })))
    this.armExpiry()
    this.project.addChannel(this)
    this.project.record({ level: 'info', event: 'join', message: `Joined ${this.config.private ? 'private' : 'public'} channel ${this.subtopic}`, topic: this.subtopic, role: this.claims.role })
    if (this.config.presenceEnabled && this.canRead('presence')) this.push('presence_state', this.project.presenceOf(this.topicKey).state())
    if (this.config.replay && typeof this.config.replay === 'object' && this.canRead('broadcast')) void this.replay(this.config.replay)
    void this.startChanges(bindings)
    return true
  }

  /** The topic's stored broadcasts since the requested time, to this channel alone (replay.ts). */
  private async replay(request: ReplayRequest): Promise<void> {
    try {
      const messages = await replayMessages(this.project.pool(), this.asker, this.subtopic, request)
      for (const message of messages) if (!this.ended) this.project.sendTo(this, message)
    } catch (error) {
      this.project.log.warn({ err: error, ref: this.project.ref }, 'realtime: a replay failed')
      this.system('system', 'error', 'UnableToReplayMessages: Realtime was unable to replay messages')
    }
  }

  private async verify(token: string): Promise<ChannelClaims> {
    const project = await this.project.gatewayProject()
    return verifyChannelToken(project, token)
  }

  /** postgres_changes: the bindings are read, the stream is running, then the `system` message says so. */
  private async startChanges(bindings: Array<Record<string, unknown> & { id: number }>): Promise<void> {
    const wantsStream = bindings.length > 0 || this.config.replicationReady
    if (!wantsStream) return
    try {
      this.subscriptions = bindings.map((params) => readSubscription(params, params.id))
    } catch (error) {
      if (error instanceof SubscriptionParamsError) return this.system('postgres_changes', 'error', error.message)
      throw error
    }
    try {
      const problem = bindings.length ? await this.project.changes.checkPublished(this.subscriptions) : null
      if (problem) return this.system('postgres_changes', 'error', problem)
      await this.project.changes.ready()
    } catch (error) {
      this.project.log.warn({ err: error, ref: this.project.ref }, 'realtime: the change stream did not start')
      if (bindings.length) this.system('postgres_changes', 'error', 'UnableToConnectToProject: Realtime was unable to connect to the project database')
      return
    }
    if (this.ended) return
    if (bindings.length) this.system('postgres_changes', 'ok', 'Subscribed to PostgreSQL')
    if (this.config.replicationReady) this.system('system', 'ok', 'Replication connection established')
  }

  /** A push on this channel (presence_state, system): carries the join ref. */
  push(event: string, payload: unknown): void {
    this.socket.send(encodeText(this.socket.vsn, { joinRef: this.joinRef, ref: null, topic: this.topic, event, payload }))
  }

  private system(extension: string, status: 'ok' | 'error', message: string): void {
    this.push('system', { extension, status, message, channel: this.subtopic })
  }

  /** An event from the client on this joined channel. */
  async handle(message: PhoenixMessage): Promise<void> {
    switch (message.event) {
      case 'broadcast':
        return this.broadcast(message)
      case 'presence':
        return this.presence(message)
      case 'access_token':
        return this.refreshToken(message)
      case 'phx_leave':
        this.socket.send(encodeText(this.socket.vsn, reply(message, 'ok', {})))
        this.close()
        return
      default:
        return
    }
  }

  private async broadcast(message: PhoenixMessage): Promise<void> {
    const payload = message.payload
    const size = isUserBroadcast(payload) ? payload.data.length : Buffer.byteLength(JSON.stringify(payload ?? null))
    if (size > this.project.limits.maxPayloadBytes) {
      if (this.config.ack) this.socket.send(encodeText(this.socket.vsn, reply(message, 'error', LIMIT_TEXTS.payload)))
      return
    }
    // A private channel without an INSERT policy for the asker: dropped, with no reply even when ack was asked.
    if (this.config.private && !(await this.mayWrite('broadcast'))) return
    if (!this.project.events.take()) return this.shutdown(LIMIT_TEXTS.events)
    if (!this.project.bytes.takeBytes(size)) return this.shutdown(LIMIT_TEXTS.bytes)
    const outgoing = isUserBroadcast(payload) ? payload : object(payload)
    this.project.broadcast(this.topicKey, outgoing, this.config.self ? null : this)
    if (this.config.ack) this.socket.send(encodeText(this.socket.vsn, reply(message, 'ok', {})))
  }

  private async presence(message: PhoenixMessage): Promise<void> {
    const payload = object(message.payload)
    const event = typeof payload.event === 'string' ? payload.event.toLowerCase() : ''
    if (!this.presenceCalls.take()) return this.shutdown(LIMIT_TEXTS.clientPresence)
    if (!this.project.presenceEvents.take()) return this.shutdown(LIMIT_TEXTS.presenceEvents)
    const refuse = (response: unknown) => this.socket.send(encodeText(this.socket.vsn, reply(message, 'error', response)))
    if ((event !== 'track' && event !== 'untrack') || (this.config.private && !(await this.mayWrite('presence')))) return refuse({})
    if (event === 'track') {
      const meta = payload.payload
      if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return refuse({ reason: 'Presence track payload must be a map' })
      if (Buffer.byteLength(JSON.stringify(meta)) > this.project.limits.maxPayloadBytes) return refuse({ reason: LIMIT_TEXTS.trackSize })
      this.project.track(this, meta as Record<string, unknown>)
    } else this.project.untrack(this)
    this.socket.send(encodeText(this.socket.vsn, reply(message, 'ok', {})))
  }

  /** Write rights are asked once per token (Supabase caches them until the next refresh). */
  private mayWrite(extension: Extension): Promise<boolean> {
    let allowed = this.writable.get(extension)
    if (!allowed) {
      allowed = writePermission(this.project.pool(), this.asker, this.subtopic, extension).catch(() => false)
      this.writable.set(extension, allowed)
    }
    return allowed
  }

  /** access_token mid-connection: never answered; a token that fails or lowers read rights ends the channel. */
  private async refreshToken(message: PhoenixMessage): Promise<void> {
    const token = presentedToken(object(message.payload).access_token)
    if (!token || token === this.claims.token) return
    try {
      const claims = await this.verify(token)
      if (this.config.private) {
        const readable = await readPermissions(this.project.pool(), { role: claims.role, claims: claims.claims as Record<string, unknown> }, this.subtopic, [...this.readable])
        if (readable.size < this.readable.size) {
          return this.shutdown(`You no longer have permission to read from this Channel topic: ${this.subtopic}`)
        }
      }
      this.claims = claims
      this.writable.clear()
      this.armExpiry()
    } catch (error) {
      this.shutdown(error instanceof TokenError ? error.message : `You do not have permissions to read from this Channel topic: ${this.subtopic}`)
    }
  }

  /** At the token's `exp` the channel ends as Supabase ends it. */
  private armExpiry(): void {
    clearTimeout(this.expiry)
    const left = this.claims.exp * 1000 - Date.now()
    // setTimeout holds at most 2^31-1 ms (about 24.8 days); a later expiry is looked at again then.
    this.expiry = setTimeout(() => (left > 2 ** 31 - 1 ? this.armExpiry() : this.shutdown('Token has expired 0 seconds ago')), Math.min(Math.max(left, 0), 2 ** 31 - 1))
    this.expiry.unref()
  }

  /** Supabase's channel shutdown: a `system` error, then phx_close; the socket stays open. */
  shutdown(reason: string): void {
    if (this.ended) return
    this.project.record({ level: 'error', event: 'channel_shutdown', message: reason, topic: this.subtopic, role: this.claims?.role ?? null })
    this.system('system', 'error', reason)
    this.close()
  }

  /** Ends the channel with phx_close (join ref in both places). */
  close(): void {
    if (this.ended) return
    this.socket.send(encodeText(this.socket.vsn, { joinRef: this.joinRef, ref: this.joinRef, topic: this.topic, event: 'phx_close', payload: {} }))
    this.end()
  }

  /** Leaves without a word (the socket closed, or a new join replaced it). */
  end(): void {
    if (this.ended) return
    this.ended = true
    clearTimeout(this.expiry)
    this.project.removeChannel(this)
    this.socket.forget(this)
  }
}
