import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * Functions written for Supabase before `Deno.serve` import `serve` from deno.land's std/http/server.ts (the
 * functions-js suite's fixtures still do). That module listens with `Deno.listen` + `Deno.serveHttp`, which Deno 2
 * no longer has, and on a TCP port, where ours listen on a socket; Supabase's edge runtime answers those calls
 * itself. Here such imports are mapped (an import map, written per function version) to this module, which serves
 * the handler with `Deno.serve` (the bootstrap puts it on the function's socket), so they run like `Deno.serve`.
 */
export const STD_HTTP_SHIM_SOURCE = String.raw`
const tcp = { transport: 'tcp', hostname: 'localhost', port: 0 }

// serve(handler, options?) as std's: resolves when the server has stopped.
export function serve(handler, options = {}) {
  if (typeof handler !== 'function') throw new TypeError('serve needs a handler function')
  const server = Deno.serve({ signal: options.signal, onError: options.onError }, (request, info) =>
    handler(request, { localAddr: tcp, remoteAddr: info.remoteAddr }))
  return server.finished
}

export function serveTls(handler, options = {}) {
  return serve(handler, options)
}

export class Server {
  #handler
  #onError
  #controller = new AbortController()
  constructor(options) {
    this.#handler = options.handler
    this.#onError = options.onError
  }
  listenAndServe() {
    return serve(this.#handler, { onError: this.#onError, signal: this.#controller.signal })
  }
  listenAndServeTls() {
    return this.listenAndServe()
  }
  close() {
    this.#controller.abort()
  }
  get closed() {
    return this.#controller.signal.aborted
  }
}
`

/** deno.land std's server module, any version or none. */
const STD_HTTP_SERVER = /https:\/\/deno\.land\/std(?:@[A-Za-z0-9._-]+)?\/http\/server\.ts/g
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?)$/
/** A function's files are looked through up to these bounds (deploys are limited far below them). */
const MAX_FILES = 2000
const MAX_FILE_BYTES = 4 * 1024 * 1024

/** The std/http/server.ts addresses a function version's source files import (symlinks are not followed). */
export function stdHttpImports(versionDir: string): string[] {
  const found = new Set<string>()
  let files = 0
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (files >= MAX_FILES) return
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile() && SOURCE_FILE.test(entry.name)) {
        files++
        if (fs.statSync(full).size > MAX_FILE_BYTES) continue
        for (const match of fs.readFileSync(full, 'utf8').matchAll(STD_HTTP_SERVER)) found.add(match[0])
      }
    }
  }
  walk(versionDir)
  return [...found]
}

type Addresses = Record<string, string>

/**
 * The function's own import map (if any) with the std/http addresses mapped to the shim. Written elsewhere than the
 * map it came from, so its relative addresses are made absolute against that map's own location (as Deno would
 * resolve them).
 */
export function mergedImportMap(ownMap: string | null, shimFile: string, stdUrls: string[]): { imports: Addresses; scopes: Record<string, Addresses> } {
  const own = ownMap ? (JSON.parse(fs.readFileSync(ownMap, 'utf8')) as { imports?: unknown; scopes?: unknown }) : {}
  const base = ownMap ? pathToFileURL(ownMap).href : undefined
  const absolute = (address: string) => (base && /^\.{0,2}\//.test(address) ? new URL(address, base).href : address)
  const addresses = (value: unknown): Addresses => {
    const result: Addresses = {}
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, target] of Object.entries(value)) if (typeof target === 'string') result[absolute(key)] = absolute(target)
    }
    return result
  }
  const imports = addresses(own.imports)
  for (const url of stdUrls) imports[url] = pathToFileURL(shimFile).href
  const scopes: Record<string, Addresses> = {}
  if (own.scopes && typeof own.scopes === 'object' && !Array.isArray(own.scopes)) {
    for (const [scope, value] of Object.entries(own.scopes)) scopes[absolute(scope)] = addresses(value)
  }
  return { imports, scopes }
}
