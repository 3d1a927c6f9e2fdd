import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/**
 * The sustained realtime runs' writers: four connections inserting into public.bench_rt from a worker thread of their
 * own. In the bench's main thread they shared an event loop with the 100 subscribers, which parse up to 100,000
 * frames a second: the inserts then went out late and the writers, not realtime, set the rate (789 of the 1,000 a
 * second they were paced at). An application's writers are not its subscribers' event loop either.
 *
 * Times are absolute (performance.timeOrigin + now), so the main thread compares them with its own arrivals.
 */
export interface Writers {
  /** Paced: `rate` inserts a second for `seconds`; or, with rate 0, as fast as the connections go for `seconds`. */
  run(rate: number, seconds: number, body: string): Promise<{ inserted: number; seconds: number }>
  end(): Promise<void>
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const pg = require(workerData.pgPath)
const now = () => performance.timeOrigin + performance.now()
const clients = []
async function connect() {
  for (let i = 0; i < workerData.connections; i++) {
    const client = new pg.Client({ host: '127.0.0.1', port: workerData.port, user: 'postgres', password: workerData.password, database: 'postgres' })
    client.on('error', (error) => parentPort.postMessage({ type: 'error', message: String(error) }))
    await client.connect()
    clients.push(client)
  }
}
async function run({ rate, seconds, body }) {
  let inserted = 0
  let commits = []
  const flush = setInterval(() => { if (commits.length) { parentPort.postMessage({ type: 'commits', commits }); commits = [] } }, 20)
  const insert = async (client) => {
    const { rows } = await client.query('INSERT INTO public.bench_rt (owner, body) VALUES (gen_random_uuid(), $1) RETURNING id', [body])
    commits.push([rows[0].id, now()])
    inserted++
  }
  const began = now()
  const until = began + seconds * 1000
  const perClient = rate / clients.length
  await Promise.all(clients.map(async (client) => {
    if (rate > 0) {
      // Each connection sends its share on a schedule: it catches up after a slow commit, never runs ahead.
      for (let i = 0; i < perClient * seconds; i++) {
        const wait = began + (i * 1000) / perClient - now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        await insert(client)
      }
    } else {
      while (now() < until) await insert(client)
    }
  }))
  clearInterval(flush)
  parentPort.postMessage({ type: 'commits', commits })
  parentPort.postMessage({ type: 'done', inserted, seconds: (now() - began) / 1000 })
}
parentPort.on('message', (message) => {
  if (message.type === 'run') run(message).catch((error) => parentPort.postMessage({ type: 'error', message: String(error) }))
  if (message.type === 'end') Promise.all(clients.map((client) => client.end())).then(() => parentPort.postMessage({ type: 'ended' }))
})
connect().then(() => parentPort.postMessage({ type: 'ready' }), (error) => parentPort.postMessage({ type: 'error', message: String(error) }))
`

export async function startWriters(port: number, password: string, onCommit: (id: string, committedAt: number) => void, connections = 4): Promise<Writers> {
  const pgPath = createRequire(import.meta.url).resolve('pg')
  const worker = new Worker(WORKER, { eval: true, workerData: { pgPath, port, password, connections } })
  let waiting: { resolve(value: any): void; reject(error: Error): void; type: string } | null = null
  const next = (type: string) => new Promise<any>((resolve, reject) => (waiting = { resolve, reject, type }))
  worker.on('message', (message: { type: string; commits?: Array<[string, number]>; message?: string }) => {
    if (message.type === 'commits') for (const [id, at] of message.commits!) onCommit(String(id), at)
    else if (message.type === 'error') waiting?.reject(new Error(`writers: ${message.message}`))
    else if (waiting?.type === message.type) waiting.resolve(message)
  })
  worker.on('error', (error) => waiting?.reject(error))
  await next('ready')
  return {
    async run(rate, seconds, body) {
      const done = next('done')
      worker.postMessage({ type: 'run', rate, seconds, body })
      const { inserted, seconds: took } = await done
      return { inserted, seconds: took }
    },
    async end() {
      const ended = next('ended')
      worker.postMessage({ type: 'end' })
      await ended
      await worker.terminate()
    },
  }
}
