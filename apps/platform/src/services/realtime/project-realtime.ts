import type pg from 'pg'
import type { Logger } from 'pino'
import type { GatewayProject } from '../../gateway/project-directory.js'
import type { ChannelMember } from './member.js'
import { ProjectChanges } from './changes/project-changes.js'
import type { ReplicationLogin } from './changes/stream.js'
import type { RealtimeConfigResponse } from '@stratum/contracts'
import type { RealtimeEvent } from './event-log.js'
import { limitsOf, PerSecond, type RealtimeLimits } from './limits.js'
import { TopicPresence, type PresenceDiff } from './presence.js'
import { encodeText, encodeUserBroadcast, isUserBroadcast, userBroadcastAsJson, type UserBroadcast, type Vsn } from './protocol.js'

export interface ProjectRealtimeOptions {
  ref: string
  log: Logger
  /** The project as the gateway knows it now (keys, JWT secret, port). */
  gatewayProject: () => Promise<GatewayProject>
  /** The authenticator pool of the project (the platform's connection registry). */
  pool: () => pg.Pool
  /** The replication login, once the realtime schema and role are in place. */
  replicationLogin: () => Promise<ReplicationLogin>
  /** The project's Realtime settings in force now (they change while it runs: the directory hears of it). */
  config: () => RealtimeConfigResponse
  /** Writes a line to the project's realtime_logs (event-log.ts). */
  record: (event: RealtimeEvent) => void
}

/** What a broadcast carries: a JSON map pushed as JSON (forwarded as received), or a user broadcast. */
export type OutgoingBroadcast = Record<string, unknown> | UserBroadcast

/**
 * One project's realtime: its sockets' channels by topic, presence per topic, the per-project limits, and its
 * change stream. Everything a channel sends to others goes through here.
 */
export class ProjectRealtime {
  readonly ref: string
  readonly log: Logger
  readonly joins: PerSecond
  readonly events: PerSecond
  readonly bytes: PerSecond
  readonly presenceEvents: PerSecond
  readonly changes: ProjectChanges
  sockets = 0
  /** Frames to and from clients since this state was made (heartbeats aside): the usage page's messages. */
  messages = 0
  private topics = new Map<string, Set<ChannelMember>>()
  private presences = new Map<string, TopicPresence<ChannelMember>>()
  private limitsFor: { config: RealtimeConfigResponse; limits: RealtimeLimits } | null = null

  constructor(private readonly options: ProjectRealtimeOptions) {
    this.ref = options.ref
    this.log = options.log
    this.joins = new PerSecond(() => this.limits.maxJoinsPerSecond)
    this.events = new PerSecond(() => this.limits.maxEventsPerSecond)
    this.bytes = new PerSecond(() => this.limits.maxBytesPerSecond)
    this.presenceEvents = new PerSecond(() => this.limits.maxPresenceEventsPerSecond)
    this.changes = new ProjectChanges({
      ref: options.ref,
      log: options.log,
      pool: options.pool,
      replicationLogin: options.replicationLogin,
      listeners: () => this.changeListeners(),
      record: options.record,
      broadcast: (topicKey, message) => this.broadcast(topicKey, message, null),
    })
  }

  get config(): RealtimeConfigResponse {
    return this.options.config()
  }

  /** The limits of the settings in force, worked out again only when the settings change. */
  get limits(): RealtimeLimits {
    const config = this.options.config()
    if (this.limitsFor?.config !== config) this.limitsFor = { config, limits: limitsOf(config) }
    return this.limitsFor.limits
  }

  /** A line of the project's realtime_logs. */
  record(event: RealtimeEvent): void {
    this.options.record(event)
  }

  gatewayProject(): Promise<GatewayProject> {
    return this.options.gatewayProject()
  }

  pool(): pg.Pool {
    return this.options.pool()
  }

  get channelCount(): number {
    let count = 0
    for (const channels of this.topics.values()) count += channels.size
    return count
  }

  /** Nobody is connected: the service may drop this project's state. */
  get idle(): boolean {
    return this.sockets === 0 && this.topics.size === 0
  }

  addChannel(channel: ChannelMember): void {
    let channels = this.topics.get(channel.topicKey)
    if (!channels) this.topics.set(channel.topicKey, (channels = new Set()))
    channels.add(channel)
    // Any channel may receive what SQL sends (realtime.send): the stream runs while one is joined.
    this.changes.listen()
  }

  removeChannel(channel: ChannelMember): void {
    const channels = this.topics.get(channel.topicKey)
    if (!channels?.delete(channel)) return
    this.untrack(channel)
    if (!channels.size) {
      this.topics.delete(channel.topicKey)
      this.presences.delete(channel.topicKey)
    }
    this.changes.unlisten()
  }

  private *changeListeners(): Iterable<ChannelMember> {
    for (const channels of this.topics.values()) for (const channel of channels) if (channel.subscriptions.length) yield channel
  }

  presenceOf(topicKey: string): TopicPresence<ChannelMember> {
    let presence = this.presences.get(topicKey)
    if (!presence) this.presences.set(topicKey, (presence = new TopicPresence()))
    return presence
  }

  track(channel: ChannelMember, meta: Record<string, unknown>): void {
    const diff = this.presenceOf(channel.topicKey).track(channel, channel.presenceKey, meta)
    if (diff) this.presenceDiff(channel.topicKey, diff)
  }

  untrack(channel: ChannelMember): void {
    const diff = this.presences.get(channel.topicKey)?.untrack(channel)
    if (diff) this.presenceDiff(channel.topicKey, diff)
  }

  /** Every channel of the topic hears it, the tracker too; private ones only with presence read rights. */
  private presenceDiff(topicKey: string, diff: PresenceDiff): void {
    const frames = new FrameCache()
    for (const channel of this.topics.get(topicKey) ?? []) {
      if (!channel.canRead('presence')) continue
      channel.socket.send(frames.text(channel.socket.vsn, channel.topic, 'presence_diff', diff))
    }
  }

  /**
   * Sends a broadcast to the topic's channels (but `except`), each frame encoded once per serializer: JSON maps as
   * JSON to everyone, user broadcasts as binary kind 4 to vsn 2.0.0 and as JSON to vsn 1.0.0 (binary payloads skip those).
   */
  broadcast(topicKey: string, message: OutgoingBroadcast, except: ChannelMember | null): number {
    const frames = new FrameCache()
    let sent = 0
    for (const channel of this.topics.get(topicKey) ?? []) {
      if (channel === except || !channel.canRead('broadcast')) continue
      const frame = isUserBroadcast(message) ? frames.userBroadcast(channel.socket.vsn, channel.topic, message) : frames.text(channel.socket.vsn, channel.topic, 'broadcast', message)
      if (frame === null) continue
      channel.socket.send(frame)
      sent++
    }
    return sent
  }

  /** A user broadcast to one channel (a replay), encoded for its serializer. */
  sendTo(channel: ChannelMember, message: UserBroadcast): void {
    const frame = new FrameCache().userBroadcast(channel.socket.vsn, channel.topic, message)
    if (frame !== null) channel.socket.send(frame)
  }

  /** Ends every channel (the project stopped or went away): each hears a `system` error and phx_close. */
  shutdownAll(reason: string): void {
    for (const channels of [...this.topics.values()]) for (const channel of [...channels]) channel.shutdown(reason)
  }

  async stop(): Promise<void> {
    await this.changes.stop()
  }
}

/** Fan-out frames are the same for every channel of a topic with the same serializer: encoded once each. */
class FrameCache {
  private frames = new Map<string, string | Buffer | null>()

  text(vsn: Vsn, topic: string, event: string, payload: unknown): string {
    const key = `text:${vsn}`
    let frame = this.frames.get(key)
    if (frame === undefined) this.frames.set(key, (frame = encodeText(vsn, { joinRef: null, ref: null, topic, event, payload })))
    return frame as string
  }

  userBroadcast(vsn: Vsn, topic: string, message: UserBroadcast): string | Buffer | null {
    const key = `user:${vsn}`
    let frame = this.frames.get(key)
    if (frame === undefined) {
      const json = userBroadcastAsJson(message)
      const fits = Buffer.byteLength(topic) <= 255 && Buffer.byteLength(message.event) <= 255 && JSON.stringify(message.meta ?? '').length <= 255
      frame =
        vsn === '2.0.0' && fits ? encodeUserBroadcast(topic, message)
        : json ? encodeText(vsn, { joinRef: null, ref: null, topic, event: 'broadcast', payload: json })
        : null
      this.frames.set(key, frame)
    }
    return frame
  }
}
