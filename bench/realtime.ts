/**
 * `npm run bench`, Realtime (issue 28), against a platform run as `npm start` runs it, each figure beside its floor
 * measured in the same run:
 *
 * - commit-to-client latency of Postgres changes (p50/p99) with 1, 100 and 1,000 subscribers on one table with RLS
 *   on, each subscriber its own user (its own claims: one RLS group each); floor: the same insert seen by a bare
 *   pgoutput stream (the platform's ChangeStream) on a Postgres of its own;
 * - sustained changes with 100 subscribers: 1,000 single-row inserts a second for 10 s (commit to the last subscriber,
 *   delivered rate), then as fast as four connections go for 5 s (the ceiling); the writers in a thread of their own
 *   (realtime-writers.ts);
 * - broadcast fan-out to 1,000 sockets, messages delivered per second; floor: a bare `ws` server (its own process)
 *   relaying the same frames;
 * - memory per idle joined connection (the platform's RSS), beside the bare `ws` server's per connection.
 *
 * BENCH_REALTIME_CPU_PROF=<dir>: the platform process writes a V8 CPU profile there when it stops (cpu-profile-hook.mjs).
 * BENCH_REALTIME_ONLY=changes: only the Postgres changes figures (no fan-out, no memory).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { randomUUID } from 'node:crypto'
import { SignJWT } from 'jose'
import pg from 'pg'
import pino from 'pino'
import WebSocket from 'ws'
import { PostgresServer, platformHba } from '../apps/platform/src/control/postgres-server.js'
import { ChangeStream } from '../apps/platform/src/services/realtime/changes/stream.js'
import { recordFigures, ratioOf, type Figure } from './figures.js'
import { startWriters } from './realtime-writers.js'
import { call, startBenchPlatform, untilStatus } from './platform.js'

const PORT = 8803
const PORT_BLOCK = 32_200
const SAMPLES = 30
const FAN_OUT_SOCKETS = 1000
const FAN_OUT_MESSAGES = 100
/** The goal: a change per millisecond, sustained. */
const SUSTAINED_RATE = 1000
const SUSTAINED_SECONDS = 10
/** The goals: p99 under 100 ms at 100 RLS-checked subscribers; 1,000 idle sockets under 100 MB. */
const P99_GOAL_MS = 100
const IDLE_MB_GOAL = 100
/**
 * How close to SUSTAINED_RATE the paced run's delivery to all 100 must come to count as sustained: its rate is taken
 * from the first commit to the last arrival, so the last change's own latency always keeps it a little under.
 */
const SUSTAINED_TOLERANCE = 0.95

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
const fmt = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms`
/** Every wait of this bench has a deadline: a lost message fails the run with its name instead of hanging it. */
function within<T>(work: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No ${what} within ${ms} ms`)), ms)
  })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1])

/** A minimal realtime-js-like client (vsn 2.0.0): joins, replies by ref, a callback per event. */
class Client {
  private ref = 0
  private replies = new Map<string, (payload: any) => void>()
  private heartbeat: NodeJS.Timeout
  onEvent: (event: string, payload: any) => void = () => {}

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, binary: boolean) => {
      if (binary) return this.onEvent('broadcast', data)
      const [, ref, , event, payload] = JSON.parse(data.toString()) as [string | null, string | null, string, string, any]
      if (event === 'phx_reply' && ref && this.replies.has(ref)) {
        this.replies.get(ref)!(payload)
        this.replies.delete(ref)
      } else this.onEvent(event, payload)
    })
    this.heartbeat = setInterval(() => this.push('phoenix', 'heartbeat', {}, null), 20_000)
  }

  static connect(url: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url)
      ws.once('open', () => resolve(new Client(ws)))
      ws.once('error', reject)
      ws.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)))
    })
  }

  push(topic: string, event: string, payload: unknown, joinRef: string | null): Promise<any> {
    const ref = String(++this.ref)
    const reply = new Promise((resolve) => this.replies.set(ref, resolve))
    this.ws.send(JSON.stringify([joinRef, ref, topic, event, payload]))
    return reply
  }

  /** Joins and, with postgres_changes, waits for the "Subscribed to PostgreSQL" system message. */
  async join(topic: string, config: object, accessToken?: string): Promise<string> {
    const joinRef = String(this.ref + 1)
    const subscribed = new Promise<void>((resolve, reject) => {
      const previous = this.onEvent
      this.onEvent = (event, payload) => {
        if (event === 'system' && payload.extension === 'postgres_changes') {
          this.onEvent = previous
          return payload.status === 'ok' ? resolve() : reject(new Error(payload.message))
        }
        previous(event, payload)
      }
    })
    const reply = await within(this.push(topic, 'phx_join', { config, ...(accessToken ? { access_token: accessToken } : {}) }, joinRef), `join reply on ${topic}`)
    if (reply.status !== 'ok') throw new Error(`join refused: ${JSON.stringify(reply.response)}`)
    if ('postgres_changes' in config && (config as { postgres_changes: unknown[] }).postgres_changes.length) await within(subscribed, 'Subscribed to PostgreSQL')
    return joinRef
  }

  close(): void {
    clearInterval(this.heartbeat)
    this.ws.close()
  }
}

async function connectAll<T>(count: number, make: (index: number) => Promise<T>, inFlight = 50): Promise<T[]> {
  const made: T[] = new Array(count)
  let next = 0
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < count) {
      const index = next++
      made[index] = await make(index)
    }
  }))
  return made
}

/** The floor of the change stream: a bare Postgres 17 with wal_level=logical, read by the same ChangeStream. */
async function streamFloor(): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-rt-'))
  fs.chmodSync(dir, 0o755)
  const port = PORT_BLOCK + 150
  const server = new PostgresServer(path.join(dir, 'pg'), '17', 'postgres')
  try {
    await server.init('postgres', 'floor-password')
    server.writeSettings({ port, listen_addresses: 'localhost', unix_socket_directories: '', wal_level: 'logical' }, platformHba(false))
    await server.start()
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'floor-password', database: 'postgres' })
    await client.connect()
    await client.query(`CREATE TABLE t (id bigint generated by default as identity primary key, body text);
      CREATE TABLE m (id int primary key); CREATE PUBLICATION supabase_realtime FOR TABLE t; CREATE PUBLICATION supabase_realtime_messages_publication FOR TABLE m`)
    let arrived: (() => void) | null = null
    const stream = new ChangeStream({ port, user: 'postgres', password: 'floor-password' }, 'stratum_realtime_floor', 'floor', () => arrived?.(), pino({ level: 'silent' }))
    await stream.start(true).started
    const latencies: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const seen = new Promise<void>((resolve) => (arrived = resolve))
      const started = performance.now()
      await client.query(`INSERT INTO t (body) VALUES ('floor')`)
      await seen
      latencies.push(performance.now() - started)
    }
    await stream.stop()
    await client.end()
    return latencies
  } finally {
    await server.stop().catch(() => {})
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** A bare `ws` relay in a process of its own: every text frame goes to every other socket. */
async function bareRelay(port: number): Promise<{ pid: number; stop(): void }> {
  const code = `const { WebSocketServer } = require('ws');
    const server = new WebSocketServer({ port: ${port} });
    server.on('connection', (socket) => socket.on('message', (data) => { for (const other of server.clients) if (other !== socket) other.send(data, { binary: false }) }));
    process.stdout.write('ready\\n')`
  const child = spawn(process.execPath, ['-e', code], { cwd: path.resolve(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()))
  return { pid: child.pid!, stop: () => child.kill() }
}

/** Sends `messages` broadcasts from one socket and waits until `receivers` each got all of them: deliveries per second. */
async function fanOut(receivers: WebSocket[] | Client[], send: (index: number) => void, messages: number): Promise<number> {
  let delivered = 0
  const expected = receivers.length * messages
  const done = new Promise<void>((resolve) => {
    const count = () => {
      if (++delivered === expected) resolve()
    }
    for (const receiver of receivers) {
      if (receiver instanceof Client) receiver.onEvent = (event) => event === 'broadcast' && count()
      else receiver.on('message', count)
    }
  })
  const started = performance.now()
  for (let i = 0; i < messages; i++) send(i)
  await within(done, `the fan-out (${expected} deliveries)`, 120_000)
  return expected / ((performance.now() - started) / 1000)
}

/** Absolute milliseconds, comparable with the writers' thread (realtime-writers.ts). */
const now = () => performance.timeOrigin + performance.now()

/**
 * A change per millisecond sustained with 100 subscribers (the goal), two ways:
 * - paced: 1,000 single-row inserts a second for SUSTAINED_SECONDS from four connections (a thread of their own);
 *   for each change, the time from its commit to the last of the 100 subscribers (p50/p99) and whether delivery kept
 *   up (delivered rate);
 * - as fast as four connections go for 5 s, then the time until every subscriber had every change (the ceiling).
 */
async function sustained(subscribers: Client[], port: number): Promise<Figure[]> {
  // Per change: when its commit was acknowledged, how many subscribers still wait for it, when the last one got it.
  // Made by whichever comes first, the insert's answer or a delivery.
  const arrivals = new Map<string, { committed: number; waiting: number; last: number }>()
  const entryOf = (id: string) => {
    let entry = arrivals.get(id)
    if (!entry) arrivals.set(id, (entry = { committed: 0, waiting: subscribers.length, last: 0 }))
    return entry
  }
  let received = 0
  for (const subscriber of subscribers) {
    subscriber.onEvent = (event, payload) => {
      if (event !== 'postgres_changes') return
      received++
      const entry = entryOf(String(payload.data.record.id))
      if (--entry.waiting === 0) entry.last = now()
    }
  }
  const writers = await startWriters(port, 'bench-db-password', (id, committedAt) => (entryOf(id).committed = committedAt))
  try {
    const began = now()
    const { inserted: paced, seconds: offeredSeconds } = await writers.run(SUSTAINED_RATE, SUSTAINED_SECONDS, 'paced')
    const deadline = performance.now() + 120_000
    while ([...arrivals.values()].some((entry) => entry.waiting > 0) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    const done = [...arrivals.values()].filter((entry) => entry.waiting === 0)
    const lags = done.map((entry) => entry.last - entry.committed)
    const lastArrival = Math.max(...done.map((entry) => entry.last))
    // Lag growth: a delivery that keeps up has the same lag in the last second as in the first.
    const lagIn = (from: number, to: number) => done.filter((entry) => entry.committed - began >= from && entry.committed - began < to).map((entry) => entry.last - entry.committed)
    const firstSecond = lagIn(0, 1000)
    const lastSecond = lagIn((SUSTAINED_SECONDS - 1) * 1000, Infinity)
    const committedRate = paced / offeredSeconds
    const deliveredRate = done.length / ((lastArrival - began) / 1000)
    console.log(
      `  sustained, 100 subscribers, paced at ${SUSTAINED_RATE}/s for ${SUSTAINED_SECONDS} s: ${committedRate.toFixed(0)} changes/s committed, ` +
        `${done.length}/${paced} reached all 100 (${deliveredRate.toFixed(0)} changes/s delivered to all); ` +
        `commit to the last subscriber ${fmt(lags)}; lag in the first second p50 ${firstSecond.length ? percentile(firstSecond, 50).toFixed(0) : '-'} ms, ` +
        `in the last p50 ${lastSecond.length ? percentile(lastSecond, 50).toFixed(0) : '-'} ms`,
    )

    // The ceiling: as fast as four connections go for 5 s.
    arrivals.clear()
    received = 0
    const started = performance.now()
    const { inserted, seconds: writeSeconds } = await writers.run(0, 5, 'max')
    const drainUntil = performance.now() + 120_000
    while (received < inserted * subscribers.length && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 50))
    const drainSeconds = (performance.now() - started) / 1000
    console.log(
      `  ceiling, 100 subscribers: ${(inserted / writeSeconds).toFixed(0)} changes/s committed for 5 s, ` +
        `${received}/${inserted * subscribers.length} deliveries in ${drainSeconds.toFixed(1)} s (${(received / subscribers.length / drainSeconds).toFixed(0)} changes/s delivered to all)`,
    )
    // The floor of both: what the four writers committed (no delivery can outrun the commits).
    const ceilingCommitted = inserted / writeSeconds
    const ceilingDelivered = received / subscribers.length / drainSeconds
    const lagP50 = (values: number[]) => (values.length ? `${percentile(values, 50).toFixed(0)} ms` : '-')
    return [
      {
        name: `sustained changes, 100 subscribers, paced at ${SUSTAINED_RATE}/s for ${SUSTAINED_SECONDS} s: delivered to all`,
        now: `${deliveredRate.toFixed(0)} changes/s, ${done.length}/${paced} reached all; commit to the last subscriber ${fmt(lags)}, lag p50 first second ${lagP50(firstSecond)}, last second ${lagP50(lastSecond)}`,
        floor: `committed by the four writers ${committedRate.toFixed(0)} changes/s`,
        ratio: ratioOf(deliveredRate, committedRate),
        goal: `a change per millisecond sustained (every change to all 100, delivered >= ${SUSTAINED_TOLERANCE * SUSTAINED_RATE}/s)`,
        met: done.length === paced && deliveredRate >= SUSTAINED_TOLERANCE * SUSTAINED_RATE,
      },
      {
        name: 'ceiling, 100 subscribers, four writers as fast as they go for 5 s: delivered to all',
        now: `${ceilingDelivered.toFixed(0)} changes/s (${received}/${inserted * subscribers.length} deliveries in ${drainSeconds.toFixed(1)} s)`,
        floor: `committed by the four writers ${ceilingCommitted.toFixed(0)} changes/s`,
        ratio: ratioOf(ceilingDelivered, ceilingCommitted),
        goal: 'none set (the ceiling)',
      },
    ]
  } finally {
    await writers.end()
  }
}

async function main() {
  const floor = await streamFloor()
  const platform = await startBenchPlatform(PORT, PORT_BLOCK, {
    STRATUM_REALTIME_MAX_CONNECTIONS: '10000',
    STRATUM_REALTIME_MAX_JOINS_PER_SECOND: '100000',
    STRATUM_REALTIME_MAX_EVENTS_PER_SECOND: '1000000',
    STRATUM_REALTIME_MAX_BYTES_PER_SECOND: '1000000000',
    ...(process.env.BENCH_REALTIME_CPU_PROF
      ? { NODE_OPTIONS: `--import ${pathToFileURL(path.join(import.meta.dirname, 'cpu-profile-hook.mjs')).href}`, BENCH_CPU_PROF_DIR: process.env.BENCH_REALTIME_CPU_PROF }
      : {}),
  })
  const changesOnly = process.env.BENCH_REALTIME_ONLY === 'changes'
  const clients: Client[] = []
  const figures: Figure[] = []
  const floorText = `a bare pgoutput stream (ChangeStream on a Postgres of its own) sees the insert in ${fmt(floor)}`
  try {
    const project = await call(platform, 'POST', '/platform/projects', { name: 'Realtime bench', organization_slug: platform.slug, db_pass: 'bench-db-password' })
    await untilStatus(platform, project.ref, 'ACTIVE_HEALTHY')
    const ref: string = project.ref
    const keys = (await call(platform, 'GET', `/v1/projects/${ref}/api-keys`)) as Array<{ name: string; api_key: string }>
    const anon = keys.find((key) => key.name === 'anon')!.api_key
    const { jwt_secret: secret } = (await call(platform, 'GET', `/v1/projects/${ref}/postgrest`)) as { jwt_secret: string }
    await call(platform, 'POST', `/v1/projects/${ref}/database/query`, {
      query: `create table public.bench_rt (id bigint generated by default as identity primary key, owner uuid, body text);
        alter table public.bench_rt enable row level security;
        create policy "readable" on public.bench_rt for select to authenticated using (true);
        alter publication supabase_realtime add table public.bench_rt;`,
    })
    const projectDb = (await call(platform, 'GET', `/platform/projects/${ref}`)) as { db_port?: number; db_host?: string }
    const db = new pg.Client({ host: '127.0.0.1', port: projectDb.db_port, user: 'postgres', password: 'bench-db-password', database: 'postgres' })
    await db.connect()
    const url = `ws://127.0.0.1:${PORT_BLOCK + 99}/projects/${ref}/realtime/v1/websocket?apikey=${anon}&vsn=2.0.0`
    const userToken = () =>
      new SignJWT({ role: 'authenticated', sub: randomUUID(), aud: 'authenticated' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('2h')
        .sign(new TextEncoder().encode(secret))

    console.log('\nRealtime (/realtime/v1, vsn 2.0.0)')
    console.log(`  floor: a bare pgoutput stream sees an insert in ${fmt(floor)}`)
    if (!changesOnly) {
      // Memory first, on a platform that has done nothing else yet (later phases leave garbage that RSS would count),
      // then fan-out: 1,000 joined sockets on one topic, idle, then a sender's broadcasts.
      const before = rssKb(platform.pid)
      const receivers = await connectAll(FAN_OUT_SOCKETS, async () => {
        const client = await Client.connect(url)
        await client.join('realtime:fan', { broadcast: { self: false } })
        return client
      })
      clients.push(...receivers)
      await new Promise((resolve) => setTimeout(resolve, 2000))
      const perConnection = ((rssKb(platform.pid) - before) / FAN_OUT_SOCKETS).toFixed(1)
      const sender = await Client.connect(url)
      clients.push(sender)
      const senderJoin = await sender.join('realtime:fan', { broadcast: { self: false } })
      const platformRate = await fanOut(receivers, (i) => void sender.push('realtime:fan', 'broadcast', { type: 'broadcast', event: 'tick', payload: { i } }, senderJoin), FAN_OUT_MESSAGES)

      const relay = await bareRelay(PORT_BLOCK + 151)
      const relayBefore = rssKb(relay.pid)
      const bare = await connectAll(FAN_OUT_SOCKETS, () => new Promise<WebSocket>((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${PORT_BLOCK + 151}`)
        socket.once('open', () => resolve(socket))
      }))
      await new Promise((resolve) => setTimeout(resolve, 2000))
      const barePerConnection = ((rssKb(relay.pid) - relayBefore) / FAN_OUT_SOCKETS).toFixed(1)
      const bareSender = await new Promise<WebSocket>((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${PORT_BLOCK + 151}`)
        socket.once('open', () => resolve(socket))
      })
      const frame = (i: number) => JSON.stringify([null, null, 'realtime:fan', 'broadcast', { type: 'broadcast', event: 'tick', payload: { i } }])
      const bareRate = await fanOut(bare, (i) => bareSender.send(frame(i)), FAN_OUT_MESSAGES)
      for (const socket of [...bare, bareSender]) socket.close()
      relay.stop()
      console.log(`  broadcast fan-out to ${FAN_OUT_SOCKETS} sockets: ${platformRate.toFixed(0)} messages/s delivered; bare ws relay ${bareRate.toFixed(0)}/s: ratio ${(platformRate / bareRate).toFixed(2)}`)
      console.log(`  memory per idle joined connection: ${perConnection} KB (1,000 sockets: ${((Number(perConnection) * 1000) / 1024).toFixed(0)} MB); bare ws ${barePerConnection} KB`)
      const idleMb = (Number(perConnection) * 1000) / 1024
      figures.push(
        {
          name: `broadcast fan-out to ${FAN_OUT_SOCKETS} sockets`,
          now: `${platformRate.toFixed(0)} messages/s delivered`,
          floor: `a bare ws relay (its own process) ${bareRate.toFixed(0)} messages/s`,
          ratio: ratioOf(platformRate, bareRate),
          goal: 'none set (issue 28: beside a bare ws relay)',
        },
        {
          name: 'memory per idle joined connection (platform RSS)',
          now: `${perConnection} KB (1,000 sockets: ${idleMb.toFixed(0)} MB)`,
          floor: `a bare ws server ${barePerConnection} KB per connection`,
          ratio: ratioOf(Number(perConnection), Number(barePerConnection)),
          goal: `1,000 idle sockets < ${IDLE_MB_GOAL} MB`,
          met: idleMb < IDLE_MB_GOAL,
        },
      )
      for (const client of clients.splice(0)) client.close()
    }

    const changes = { postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'bench_rt' }] }
    for (const count of [1, 100, 1000]) {
      const subscribers = await connectAll(count, async () => {
        const client = await Client.connect(url)
        await client.join('realtime:changes', changes, await userToken())
        return client
      })
      const latencies: number[] = []
      for (let i = 0; i < SAMPLES; i++) {
        let waiting = count
        let started = 0
        const all = new Promise<void>((resolve) => {
          for (const subscriber of subscribers) {
            subscriber.onEvent = (event) => {
              if (event !== 'postgres_changes') return
              latencies.push(performance.now() - started)
              if (--waiting === 0) resolve()
            }
          }
        })
        started = performance.now()
        await db.query(`INSERT INTO public.bench_rt (owner, body) VALUES (gen_random_uuid(), 'x')`)
        await within(all, `the change at ${count} subscribers (${waiting} still waiting)`)
      }
      console.log(`  ${String(count).padStart(4)} subscribers (one RLS group each): commit to client ${fmt(latencies)} (floor p50 ${percentile(floor, 50).toFixed(1)} ms)`)
      // The ratio compares the p50s (the floor's p99 is the slowest of 30 single inserts, a noisy figure).
      figures.push({
        name: `Postgres changes, commit to client, ${count} subscriber${count === 1 ? '' : 's'} (RLS on, one group each)`,
        now: fmt(latencies),
        floor: floorText,
        ratio: ratioOf(percentile(latencies, 50), percentile(floor, 50)),
        goal: count === 100 ? `p99 < ${P99_GOAL_MS} ms` : 'none set',
        ...(count === 100 ? { met: percentile(latencies, 99) < P99_GOAL_MS } : {}),
      })
      if (count === 100) figures.push(...(await sustained(subscribers, projectDb.db_port!)))
      for (const subscriber of subscribers) subscriber.close()
    }

    await db.end()
    recordFigures('realtime', figures)
  } finally {
    for (const client of clients) client.close()
    await platform.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
