import { describe, expect, it } from 'vitest'
import { disableRefusal, extensionVerdicts, refusalMessage } from '../../src/control/extension-policy.js'

const verdicts = (requires: Record<string, string[]>) => extensionVerdicts(new Map(Object.entries(requires)))

describe('extension policy', () => {
  it('refuses the named extensions that reach files, programs, the network or raw storage', () => {
    const names = ['adminpack', 'file_fdw', 'dblink', 'postgres_fdw', 'pageinspect', 'pg_walinspect', 'pg_surgery']
    const result = verdicts(Object.fromEntries(names.map((name) => [name, []])))
    for (const name of names) {
      expect(result.get(name)?.allowed, name).toBe(false)
      expect(result.get(name)?.reason, name).toBeTruthy()
    }
  })

  it('refuses every untrusted language by its name, and lets the trusted ones through', () => {
    const result = verdicts({ plperlu: [], plpython3u: [], pltclu: [], plv8u: [], plperl: [], pltcl: [], plpgsql: [] })
    for (const name of ['plperlu', 'plpython3u', 'pltclu', 'plv8u']) expect(result.get(name)?.reason, name).toMatch(/untrusted language/)
    for (const name of ['plperl', 'pltcl', 'plpgsql']) expect(result.get(name), name).toEqual({ allowed: true, reason: null })
  })

  it('refuses what requires a refused extension, however deep', () => {
    const result = verdicts({ plperlu: [], hstore: [], hstore_plperlu: ['hstore', 'plperlu'], wrapper: ['hstore_plperlu'], earthdistance: ['cube'], cube: [] })
    expect(result.get('hstore_plperlu')?.reason).toMatch(/^it requires plperlu, which is refused: an untrusted language/)
    expect(result.get('wrapper')?.reason).toMatch(/^it requires hstore_plperlu, which is refused/)
    expect(result.get('earthdistance')).toEqual({ allowed: true, reason: null })
  })

  it('refuses test modules and survives a cycle of requirements', () => {
    const result = verdicts({ test_ext1: [], a: ['b'], b: ['a'] })
    expect(result.get('test_ext1')?.allowed).toBe(false)
    expect(result.get('a')?.allowed).toBe(true)
    expect(result.get('b')?.allowed).toBe(true)
  })

  it('phrases the refusal and keeps plpgsql', () => {
    expect(refusalMessage('dblink', 'why')).toBe('Extension dblink cannot be enabled on this platform: why')
    expect(disableRefusal('plpgsql')).toMatch(/cannot be disabled/)
    expect(disableRefusal('pgcrypto')).toBeNull()
  })
})
