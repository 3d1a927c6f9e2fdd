/**
 * Phoenix Channels frames as realtime-js 2.x speaks them (docs/research/realtime-protocol.md §1): serializer
 * vsn 1.0.0 (JSON objects, no join_ref from the server) and 2.0.0 (JSON arrays, and binary frames for user
 * broadcasts: kind 3 from clients, kind 4 to them).
 */

export type Vsn = '1.0.0' | '2.0.0'

/** A frame's fields once decoded. `payload` is the JSON payload, or a user broadcast read from a kind-3 frame. */
export interface PhoenixMessage {
  joinRef: string | null
  ref: string | null
  topic: string
  event: string
  payload: unknown
}

/** A broadcast sent as a binary kind-3 frame, or over HTTP to one event: delivered as kind 4 to vsn 2.0.0 clients. */
export interface UserBroadcast {
  kind: 'user-broadcast'
  event: string
  /** JSON text (encoding 1) or raw bytes (encoding 0). */
  encoding: 'json' | 'binary'
  data: Buffer
  /** Metadata delivered beside the payload (`meta` on the client): the id of a message sent from the database. */
  meta?: Record<string, unknown>
}

export const isUserBroadcast = (value: unknown): value is UserBroadcast =>
  typeof value === 'object' && value !== null && (value as UserBroadcast).kind === 'user-broadcast'

/** Phoenix's frame size limit in Supabase Realtime's endpoint. */
export const MAX_FRAME_BYTES = 5_000_000

const USER_BROADCAST_PUSH = 3
const USER_BROADCAST = 4

export class ProtocolError extends Error {}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null)

/** Decodes one frame from a client; throws ProtocolError for what no client sends. */
export function decodeFrame(vsn: Vsn, data: Buffer, isBinary: boolean): PhoenixMessage {
  if (isBinary) {
    if (vsn !== '2.0.0') throw new ProtocolError('Binary frames need vsn 2.0.0')
    return decodeUserBroadcastPush(data)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(data.toString('utf8'))
  } catch {
    throw new ProtocolError('A frame is not JSON')
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) throw new ProtocolError('A vsn 2.0.0 frame is [join_ref, ref, topic, event, payload]')
    const [joinRef, ref, topic, event, payload] = parsed
    if (typeof topic !== 'string' || typeof event !== 'string') throw new ProtocolError('A frame needs a topic and an event')
    return { joinRef: text(joinRef), ref: text(ref), topic, event, payload }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ProtocolError('A vsn 1.0.0 frame is a JSON object')
  const message = parsed as Record<string, unknown>
  if (typeof message.topic !== 'string' || typeof message.event !== 'string') throw new ProtocolError('A frame needs a topic and an event')
  return { joinRef: text(message.join_ref), ref: text(message.ref), topic: message.topic, event: message.event, payload: message.payload }
}

/** Kind 3: [3, len join_ref, len ref, len topic, len event, len metadata, encoding] then the strings and the payload. */
function decodeUserBroadcastPush(data: Buffer): PhoenixMessage {
  if (data.length < 7 || data[0] !== USER_BROADCAST_PUSH) throw new ProtocolError('Unknown binary frame')
  const lengths = [data[1]!, data[2]!, data[3]!, data[4]!, data[5]!]
  let offset = 7
  const [joinRef, ref, topic, event, metadata] = lengths.map((length) => {
    if (offset + length > data.length) throw new ProtocolError('A binary frame is shorter than its header says')
    const part = data.subarray(offset, offset + length).toString('utf8')
    offset += length
    return part
  }) as [string, string, string, string, string]
  let meta: Record<string, unknown> | undefined
  if (metadata) {
    try {
      const parsed: unknown = JSON.parse(metadata)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>
    } catch {
      throw new ProtocolError('A binary frame has metadata that is not JSON')
    }
  }
  const payload: UserBroadcast = { kind: 'user-broadcast', event, encoding: data[6] === 1 ? 'json' : 'binary', data: data.subarray(offset), meta }
  return { joinRef: joinRef || null, ref: ref || null, topic, event: 'broadcast', payload }
}

/** A text frame for a client of `vsn`. vsn 1.0.0 never carries join_ref (Phoenix's V1 serializer leaves it out). */
export function encodeText(vsn: Vsn, message: PhoenixMessage): string {
  if (vsn === '2.0.0') return JSON.stringify([message.joinRef, message.ref, message.topic, message.event, message.payload])
  return JSON.stringify({ topic: message.topic, event: message.event, payload: message.payload, ref: message.ref })
}

/** Kind 4 to a vsn 2.0.0 client: [4, len topic, len event, len metadata, encoding] then the strings and the payload. */
export function encodeUserBroadcast(topic: string, broadcast: UserBroadcast): Buffer {
  const topicBytes = Buffer.from(topic, 'utf8')
  const eventBytes = Buffer.from(broadcast.event, 'utf8')
  const metaBytes = broadcast.meta ? Buffer.from(JSON.stringify(broadcast.meta), 'utf8') : Buffer.alloc(0)
  if (topicBytes.length > 255 || eventBytes.length > 255 || metaBytes.length > 255) throw new ProtocolError('A binary frame field is longer than 255 bytes')
  const header = Buffer.from([USER_BROADCAST, topicBytes.length, eventBytes.length, metaBytes.length, broadcast.encoding === 'json' ? 1 : 0])
  return Buffer.concat([header, topicBytes, eventBytes, metaBytes, broadcast.data])
}

/**
 * A user broadcast as JSON, for vsn 1.0.0 clients (and for strings too long for a binary header): null for a
 * binary payload, which such clients cannot read (Supabase drops it for them too).
 */
export function userBroadcastAsJson(broadcast: UserBroadcast): Record<string, unknown> | null {
  if (broadcast.encoding === 'binary') return null
  let payload: unknown
  try {
    payload = JSON.parse(broadcast.data.toString('utf8'))
  } catch {
    return null
  }
  return { type: 'broadcast', event: broadcast.event, payload, ...(broadcast.meta ? { meta: broadcast.meta } : {}) }
}

export const reply = (request: PhoenixMessage, status: 'ok' | 'error', response: unknown): PhoenixMessage => ({
  joinRef: request.joinRef,
  ref: request.ref,
  topic: request.topic,
  event: 'phx_reply',
  payload: { status, response },
})
