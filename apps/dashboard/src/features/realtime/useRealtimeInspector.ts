import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import { useCallback, useEffect, useRef, useState } from 'react'

/** What the inspector listens to on its channel. */
export interface InspectorOptions {
  channel: string
  isPrivate: boolean
  broadcast: boolean
  presence: boolean
  changes: boolean
  schema: string
  table: string
}

export interface InspectorMessage {
  id: number
  at: Date
  type: 'broadcast' | 'presence' | 'postgres_changes' | 'system'
  event: string
  payload: unknown
}

export type InspectorStatus = 'idle' | 'joining' | 'listening' | 'error' | 'closed'

/** The newest messages kept: a busy channel must not grow the page without bound. */
const KEPT = 500

/**
 * The Realtime inspector's connection: a supabase-js client of the project URL with the chosen key, one channel with
 * the chosen bindings, every message it hears (newest first). The browser speaks to the project URL directly, as an
 * app would; nothing goes through the dashboard's API.
 */
export function useRealtimeInspector(url: string | undefined, key: string | undefined) {
  const client = useRef<SupabaseClient | null>(null)
  const channel = useRef<RealtimeChannel | null>(null)
  const [status, setStatus] = useState<InspectorStatus>('idle')
  const [error, setError] = useState<string | null>(null)
  const [messages, setMessages] = useState<InspectorMessage[]>([])
  const counter = useRef(0)

  const add = useCallback((type: InspectorMessage['type'], event: string, payload: unknown) => {
    const message = { id: ++counter.current, at: new Date(), type, event, payload }
    setMessages((previous) => [message, ...previous].slice(0, KEPT))
  }, [])

  const stop = useCallback(async () => {
    const current = client.current
    client.current = null
    channel.current = null
    if (current) await current.removeAllChannels()
    setStatus((previous) => (previous === 'idle' ? previous : 'closed'))
  }, [])

  const start = useCallback(
    async (options: InspectorOptions) => {
      if (!url || !key) return
      await stop()
      setError(null)
      setStatus('joining')
      const made = createClient(url, key, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } })
      client.current = made
      const joined = made.channel(options.channel, { config: { private: options.isPrivate, broadcast: { self: true, ack: true }, presence: { enabled: options.presence } } })
      if (options.broadcast) joined.on('broadcast', { event: '*' }, (message) => add('broadcast', String(message.event), message.payload))
      if (options.presence) {
        joined.on('presence', { event: 'join' }, ({ key: who, newPresences }) => add('presence', 'join', { key: who, presences: newPresences }))
        joined.on('presence', { event: 'leave' }, ({ key: who, leftPresences }) => add('presence', 'leave', { key: who, presences: leftPresences }))
      }
      if (options.changes) {
        joined.on('postgres_changes', { event: '*', schema: options.schema || 'public', ...(options.table && options.table !== '*' ? { table: options.table } : {}) }, (change) =>
          add('postgres_changes', change.eventType, change),
        )
      }
      joined.on('system', {}, (message: { extension?: string; status?: string; message?: string }) => add('system', message.status ?? 'message', message))
      channel.current = joined
      joined.subscribe((state, failure) => {
        if (client.current !== made) return
        if (state === 'SUBSCRIBED') setStatus('listening')
        else if (state === 'CHANNEL_ERROR' || state === 'TIMED_OUT') {
          setStatus('error')
          setError(failure?.message ?? (state === 'TIMED_OUT' ? 'The server did not answer the join in time' : 'The channel failed'))
        } else if (state === 'CLOSED') setStatus('closed')
      })
    },
    [url, key, stop, add],
  )

  /** Sends a broadcast on the channel (acknowledged by the server: the promise says 'ok', 'error' or 'timed out'). */
  const send = useCallback(async (event: string, payload: Record<string, unknown>) => {
    if (!channel.current) return 'error'
    return channel.current.send({ type: 'broadcast', event, payload })
  }, [])

  // Leaving the page leaves the channel.
  useEffect(() => () => void stop(), [stop])

  return { status, error, messages, start, stop, send, clear: () => setMessages([]) }
}
