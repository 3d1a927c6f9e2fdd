import { isIP } from 'node:net'
import path from 'node:path'
import { REPO_ROOT } from './platform-root.js'
import type { RealtimeConfigResponse } from '@stratum/contracts'
import { DEFAULT_REALTIME_CONFIG } from './services/realtime/limits.js'

/**
 * Every setting is an environment variable, documented in the README's table.
 * Read once at boot; nothing else in the platform reads process.env.
 */
export interface Config {
  port: number
  host: string
  dataDir: string
  /** Pre-initialised clusters new project instances are copied from (STRATUM_TEMPLATE_DIR; default <dataDir>/templates). */
  templateDir: string
  /**
   * Copies of each template kept ready so that a creation renames one instead of copying (STRATUM_SPARE_INSTANCES,
   * default 1; 0 turns them off): control/instance-templates.ts.
   */
  spareInstances: number
  /** When set, the platform data lives in this Postgres instead of the embedded one. */
  platformDatabaseUrl: string | null
  adminEmail: string
  adminPassword: string | null
  /** Host name shown to users in connection details, and where project instances listen. */
  dbHost: string
  dbListenAddresses: string
  /** Port of the embedded platform database on its first start (kept afterwards); 0 = first free from 15432. */
  platformDbPort: number
  /** First port tried for project instances (each project gets its own). */
  projectPortStart: number
  /** Public origin used for CSRF origin checks when behind a proxy (default: the request's own Host). An https one makes the session cookie Secure. */
  publicUrl: string | null
  /** STRATUM_PROJECT_DOMAIN: when set, each project's API also answers at {ref}.<domain> (gateway/host-routing.ts). */
  projectDomain: string | null
  /**
   * STRATUM_PROJECT_PORT: the port of the project APIs' own listener (the gateway), never the dashboard's:
   * tenant content (functions' pages, storage objects) must not share the dashboard's origin. Default PORT + 1
   * (0, a free port, when PORT is 0); set to the listening port once listening (main.ts).
   */
  projectPort: number
  /** STRATUM_PROJECT_PUBLIC_URL: the project APIs' public origin behind a reverse proxy (e.g. https://api.example.com). */
  projectPublicUrl: string | null
  /** A project's API processes (PostgREST, GraphQL) stop after this long without a request; the next request starts them. */
  apiIdleMs: number
  /** How often the log collector copies the instances' Postgres logs into the log store (STRATUM_LOG_COLLECT_INTERVAL_MS). */
  logCollectIntervalMs: number
  /** How often the usage collector samples CPU, memory, connections and disk IO of each instance (STRATUM_USAGE_INTERVAL_MS). */
  usageIntervalMs: number
  /** How often it walks each data directory for its size (STRATUM_USAGE_DISK_INTERVAL_MS): the walk costs the most. */
  usageDiskIntervalMs: number
  /** Heap limit of each edge function's Deno process (V8 --max-old-space-size), in MB. */
  functionMemoryMb: number
  /** Wall-clock limit of one edge function request; a request that runs longer is answered 504 and its process stopped. */
  functionTimeoutMs: number
  /**
   * Projects' own SMTP servers may be on loopback or private addresses (STRATUM_SMTP_ALLOW_PRIVATE_HOSTS=true):
   * off by default, so a project cannot make the platform connect to services of its own network.
   */
  smtpAllowPrivateHosts: boolean
  /**
   * Projects' database webhooks and net.http_* requests may reach loopback or private addresses
   * (STRATUM_NET_ALLOW_PRIVATE_HOSTS=true): off by default, like SMTP's. A project's own edge functions are always reachable.
   */
  netAllowPrivateHosts: boolean
  /** The largest object storage accepts in any bucket (a bucket's own file_size_limit may be lower). */
  storageMaxFileBytes: number
  /**
   * Realtime's per-project limits (Supabase's defaults): STRATUM_REALTIME_MAX_CONNECTIONS, _MAX_JOINS_PER_SECOND,
   * _MAX_EVENTS_PER_SECOND.
   */
  /** The defaults of every project's Realtime settings (each project may set its own: /v1/projects/{ref}/config/realtime). */
  realtimeDefaults: RealtimeConfigResponse
  /**
   * Which proxies' X-Forwarded-For/-Proto/-Host headers to believe (Fastify's trustProxy): false
   * (none), true (any sender), or the proxies' addresses/CIDRs. Decides request.ip (the sign-in limit)
   * and request.protocol (the Secure session cookie).
   */
  trustProxy: TrustProxy
  loginRateLimitPerMinute: number
  logLevel: string
  /** Pause between the steps of lifecycle operations: lets tests interrupt one half-way. 0 in use. */
  operationStepDelayMs: number
  /** Where the built dashboard lives. */
  dashboardDist: string
  /** The model behind the SQL editor's AI features; null = AI off (the key check says so). */
  ai: AiSettings | null
  /** Inline completions and titles allowed per minute per user. */
  aiRateLimitPerMinute: number
  /** STRATUM_AI_OPT_IN_CHOOSABLE (default true): organizations may change their assistant opt-in level (the opt-in feature flag). */
  aiOptInChoosable: boolean
  /** STRATUM_ASSISTANT_DISABLED=true: the assistant is turned off for now ("Assistant has been temporarily disabled"). */
  assistantDisabled: boolean
  /** Installation settings fixed by the environment; null = the platform database's value decides. */
  organizationCreation: 'everyone' | 'installation_owner' | null
  planChanges: 'installation_owner' | 'organization_owners' | null
  /** GitHub's REST API (STRATUM_GITHUB_API_URL): api.github.com, a GitHub Enterprise server's /api/v3, or a tests' loopback. */
  githubApiUrl: string
}

export type TrustProxy = boolean | string[]

/** Names proxy-addr knows besides addresses: the loopback, link-local and unique-local ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/**
 * STRATUM_TRUST_PROXY: empty or false, true, or a comma-separated list of the proxies' addresses.
 * (No hop count: Fastify 5 ignores one, since it cannot tell a proxy from a client that says so.)
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const text = raw?.trim() ?? ''
  if (text === '' || text.toLowerCase() === 'false') return false
  if (text.toLowerCase() === 'true') return true
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean)
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/')
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (isIP(address ?? '') === 6 ? 128 : 32))
    if (!(PROXY_RANGE_NAMES.has(entry) || (isIP(address ?? '') !== 0 && validPrefix && extra === undefined))) {
      throw new Error(`STRATUM_TRUST_PROXY must be true, false, or the proxies' addresses such as 127.0.0.1,10.0.0.0/8 or loopback; '${entry}' is none of these`)
    }
  }
  return entries
}

export const AI_PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const
export type AiProviderName = (typeof AI_PROVIDERS)[number]

export interface AiSettings {
  provider: AiProviderName
  model: string
  /** Null only for openai-compatible servers that need none (Ollama). */
  apiKey: string | null
  /** Null = the provider's own endpoint. */
  baseUrl: string | null
}

/** Models used when STRATUM_AI_MODEL is unset: small, fast ones suit inline edits and titles. */
export const DEFAULT_AI_MODELS: Record<Exclude<AiProviderName, 'openai-compatible'>, string> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
}

/**
 * The AI provider from STRATUM_AI_*, falling back to the providers' usual OPENAI_API_KEY /
 * ANTHROPIC_API_KEY so that a machine that already has one of them works without more setup.
 * Mistakes throw at boot with the variable to fix, rather than at the first request.
 */
export function loadAiSettings(env: NodeJS.ProcessEnv): AiSettings | null {
  const text = (name: string) => env[name]?.trim() || null
  const explicit = text('STRATUM_AI_PROVIDER')?.toLowerCase() ?? null
  if (explicit !== null && !(AI_PROVIDERS as readonly string[]).includes(explicit)) {
    throw new Error(`STRATUM_AI_PROVIDER must be one of ${AI_PROVIDERS.join(', ')} (or empty to turn AI off), got '${text('STRATUM_AI_PROVIDER')}'`)
  }
  const provider = (explicit ?? (text('OPENAI_API_KEY') ? 'openai' : text('ANTHROPIC_API_KEY') ? 'anthropic' : null)) as AiProviderName | null
  if (!provider) return null
  const baseUrl = text('STRATUM_AI_BASE_URL')
  if (baseUrl !== null) {
    let parsed: URL | null = null
    try {
      parsed = new URL(baseUrl)
    } catch {
      parsed = null
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new Error(`STRATUM_AI_BASE_URL must be an http(s) URL, got '${baseUrl}'`)
  }
  if (provider === 'openai-compatible') {
    const model = text('STRATUM_AI_MODEL')
    if (!baseUrl) throw new Error('STRATUM_AI_BASE_URL is required when STRATUM_AI_PROVIDER is openai-compatible (e.g. http://localhost:11434/v1 for Ollama)')
    if (!model) throw new Error('STRATUM_AI_MODEL is required when STRATUM_AI_PROVIDER is openai-compatible (the model name the server knows, e.g. qwen2.5-coder:7b)')
    return { provider, model, apiKey: text('STRATUM_AI_API_KEY'), baseUrl }
  }
  const fallbackKey = provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'
  const apiKey = text('STRATUM_AI_API_KEY') ?? text(fallbackKey)
  if (!apiKey) throw new Error(`STRATUM_AI_PROVIDER is ${provider} but no API key is set: set STRATUM_AI_API_KEY or ${fallbackKey}`)
  return { provider, model: text('STRATUM_AI_MODEL') ?? DEFAULT_AI_MODELS[provider], apiKey, baseUrl }
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`)
  return value
}

function choiceFrom<T extends string>(env: NodeJS.ProcessEnv, name: string, choices: readonly T[]): T | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  if (!(choices as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${choices.join(', ')} (or empty), got '${raw}'`)
  return raw as T
}

function httpUrlFrom(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback
  if (!/^https?:\/\/[^/]/.test(raw) || !URL.canParse(raw)) throw new Error(`${name} must be an http(s) URL, got '${raw}'`)
  return raw.replace(/\/+$/, '')
}

function projectPortFrom(env: NodeJS.ProcessEnv): number {
  const port = intFrom(env, 'PORT', 8000)
  const projectPort = intFrom(env, 'STRATUM_PROJECT_PORT', port === 0 ? 0 : port + 1)
  if (projectPort !== 0 && projectPort === port) throw new Error('STRATUM_PROJECT_PORT must differ from PORT: the project APIs need an origin of their own')
  return projectPort
}

/** An http(s) origin without a trailing slash, or null when unset. */
function originFrom(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(`${name} must be an http(s) URL, got ${raw}`)
  }
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '')) throw new Error(`${name} must be an http(s) origin without a path, got ${raw}`)
  return url.origin
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: intFrom(env, 'PORT', 8000),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.STRATUM_DATA_DIR || path.join(REPO_ROOT, '.stratum')),
    templateDir: path.resolve(env.STRATUM_TEMPLATE_DIR || path.join(env.STRATUM_DATA_DIR || path.join(REPO_ROOT, '.stratum'), 'templates')),
    spareInstances: intFrom(env, 'STRATUM_SPARE_INSTANCES', 1),
    platformDatabaseUrl: env.PLATFORM_DATABASE_URL || null,
    adminEmail: (env.STRATUM_ADMIN_EMAIL || 'admin@stratum.local').trim().toLowerCase(),
    adminPassword: env.STRATUM_ADMIN_PASSWORD || null,
    dbHost: env.STRATUM_DB_HOST || 'localhost',
    dbListenAddresses: env.STRATUM_DB_LISTEN_ADDRESSES || 'localhost',
    platformDbPort: intFrom(env, 'STRATUM_PLATFORM_DB_PORT', 0),
    projectPortStart: intFrom(env, 'STRATUM_PROJECT_PORT_START', 15500),
    publicUrl: env.STRATUM_PUBLIC_URL || null,
    projectDomain: env.STRATUM_PROJECT_DOMAIN?.trim().toLowerCase().replace(/^\.+|\.+$/g, '') || null,
    projectPort: projectPortFrom(env),
    projectPublicUrl: originFrom(env, 'STRATUM_PROJECT_PUBLIC_URL'),
    apiIdleMs: intFrom(env, 'STRATUM_API_IDLE_MS', 15 * 60_000),
    logCollectIntervalMs: intFrom(env, 'STRATUM_LOG_COLLECT_INTERVAL_MS', 2000),
    usageIntervalMs: intFrom(env, 'STRATUM_USAGE_INTERVAL_MS', 5000),
    usageDiskIntervalMs: intFrom(env, 'STRATUM_USAGE_DISK_INTERVAL_MS', 30_000),
    functionMemoryMb: intFrom(env, 'STRATUM_FUNCTION_MEMORY_MB', 256),
    functionTimeoutMs: intFrom(env, 'STRATUM_FUNCTION_TIMEOUT_MS', 150_000),
    smtpAllowPrivateHosts: env.STRATUM_SMTP_ALLOW_PRIVATE_HOSTS === 'true',
    netAllowPrivateHosts: env.STRATUM_NET_ALLOW_PRIVATE_HOSTS === 'true',
    storageMaxFileBytes: intFrom(env, 'STRATUM_STORAGE_MAX_FILE_BYTES', 5 * 1024 ** 3),
    realtimeDefaults: {
      ...DEFAULT_REALTIME_CONFIG,
      max_concurrent_users: intFrom(env, 'STRATUM_REALTIME_MAX_CONNECTIONS', DEFAULT_REALTIME_CONFIG.max_concurrent_users),
      max_joins_per_second: intFrom(env, 'STRATUM_REALTIME_MAX_JOINS_PER_SECOND', DEFAULT_REALTIME_CONFIG.max_joins_per_second),
      max_events_per_second: intFrom(env, 'STRATUM_REALTIME_MAX_EVENTS_PER_SECOND', DEFAULT_REALTIME_CONFIG.max_events_per_second),
      max_bytes_per_second: intFrom(env, 'STRATUM_REALTIME_MAX_BYTES_PER_SECOND', DEFAULT_REALTIME_CONFIG.max_bytes_per_second),
    },
    trustProxy: parseTrustProxy(env.STRATUM_TRUST_PROXY),
    loginRateLimitPerMinute: intFrom(env, 'STRATUM_LOGIN_RATE_LIMIT', 10),
    logLevel: env.LOG_LEVEL || 'info',
    operationStepDelayMs: intFrom(env, 'STRATUM_OPERATION_STEP_DELAY_MS', 0),
    dashboardDist: path.resolve(env.STRATUM_DASHBOARD_DIST || path.join(REPO_ROOT, 'apps/dashboard/dist')),
    ai: loadAiSettings(env),
    aiRateLimitPerMinute: intFrom(env, 'STRATUM_AI_RATE_LIMIT', 30),
    aiOptInChoosable: env.STRATUM_AI_OPT_IN_CHOOSABLE !== 'false',
    assistantDisabled: env.STRATUM_ASSISTANT_DISABLED === 'true',
    organizationCreation: choiceFrom(env, 'STRATUM_ORGANIZATION_CREATION', ['everyone', 'installation_owner']),
    planChanges: choiceFrom(env, 'STRATUM_PLAN_CHANGES', ['installation_owner', 'organization_owners']),
    githubApiUrl: httpUrlFrom(env, 'STRATUM_GITHUB_API_URL', 'https://api.github.com'),
  }
}
