import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from './config.js'
import { generatePassword } from './auth/passwords.js'
import { hashToken, newAccessToken, tokenAlias } from './auth/secrets.js'
import { findUserByEmail, setPassword } from './auth/users.js'
import { openPool, type Db } from './store/db.js'
import { migrate } from './store/migrate.js'
import { openPlatformDatabase } from './store/platform-database.js'

const USAGE = `Usage:
  stratum start                                   start the platform (see the README for its settings)
  stratum token create --email E [--name N]       print a new personal access token for E
  stratum admin reset-password --email E          print a new one-time password for E
`

async function start(): Promise<void> {
  // Loaded here, not at the top: the one-off commands need none of the server's modules.
  const { startPlatform } = await import('./main.js')
  const platform = await startPlatform()
  console.log(`\nStratum is running at ${platform.url} (data: ${platform.ctx.config.dataDir})`)
  console.log(`Project APIs (supabase-js, REST, auth, storage, functions) answer on their own origin: ${platform.apiUrl}/projects/<ref>`)
  if (platform.firstLogin) {
    const { email, password, generated } = platform.firstLogin
    console.log(`\nFirst start: sign in as ${email} with password ${generated ? password : '(the value of STRATUM_ADMIN_PASSWORD)'}`)
    if (generated) console.log('This password is shown only once. Change it under Account once signed in.')
  }
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: stopping project instances...`)
    await platform.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

/** Opens the platform database for a one-off command, stopping the embedded server afterwards if we started it. */
async function withDatabase<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const config = loadConfig()
  // A one-off command never makes an installation: run without the server's STRATUM_DATA_DIR, it would otherwise
  // initialise an empty one and answer for it ("No account with email ...").
  if (!config.platformDatabaseUrl && !fs.existsSync(path.join(config.dataDir, 'platform-db.json'))) {
    throw new Error(`No Stratum installation in ${config.dataDir}: set STRATUM_DATA_DIR to the data directory of the server (\`stratum start\` prints it).`)
  }
  process.stderr.write(`Using the installation in ${config.dataDir}\n`)
  const platformDb = await openPlatformDatabase(config.dataDir, config.platformDatabaseUrl, config.platformDbPort)
  const db = openPool(platformDb.url, 2)
  try {
    await migrate(db)
    return await fn(db)
  } finally {
    await db.end()
    if (platformDb.startedHere) await platformDb.server?.stop()
  }
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  const command = positionals.join(' ')
  if (values.help || command === '') {
    process.stdout.write(USAGE)
    return values.help ? 0 : 1
  }
  if (command === 'start') {
    await start()
    return -1 // keep running
  }
  if (command === 'token create' || command === 'admin reset-password') {
    if (!values.email) {
      process.stderr.write(`--email is required\n\n${USAGE}`)
      return 2
    }
    const email = values.email
    return withDatabase(async (db) => {
      const user = await findUserByEmail(db, email)
      if (!user) {
        process.stderr.write(`No account with email ${email}\n`)
        return 1
      }
      if (command === 'token create') {
        const token = newAccessToken()
        await db.query('INSERT INTO access_tokens (user_id, name, token_hash, token_alias) VALUES ($1, $2, $3, $4)', [
          user.id, values.name ?? 'CLI token', hashToken(token), tokenAlias(token),
        ])
        process.stdout.write(token + '\n') // stdout holds only the token, for scripts
      } else {
        const password = generatePassword()
        await setPassword(db, user.id, password, true)
        process.stdout.write(`New one-time password for ${user.email}: ${password}\nIt must be changed at the next sign-in.\n`)
      }
      return 0
    })
  }
  process.stderr.write(`Unknown command: ${command}\n\n${USAGE}`)
  return 2
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code)
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
