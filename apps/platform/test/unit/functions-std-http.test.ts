import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { mergedImportMap, stdHttpImports } from '../../src/services/functions/std-http.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'std-http-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe("std/http/server.ts imports (functions' stand-in)", () => {
  it('finds every version of the module in the source files, and only there', () => {
    fs.mkdirSync(path.join(dir, 'lib'))
    fs.writeFileSync(path.join(dir, 'index.ts'), `import { serve } from "https://deno.land/std/http/server.ts"\nimport "https://deno.land/std@0.177.0/http/server.ts"`)
    fs.writeFileSync(path.join(dir, 'lib', 'a.js'), `import('https://deno.land/std@0.224.0/http/server.ts'); import 'https://deno.land/std@0.224.0/http/status.ts'`)
    fs.writeFileSync(path.join(dir, 'notes.md'), 'https://deno.land/std@9.9.9/http/server.ts')
    expect(stdHttpImports(dir).sort()).toEqual([
      'https://deno.land/std/http/server.ts',
      'https://deno.land/std@0.177.0/http/server.ts',
      'https://deno.land/std@0.224.0/http/server.ts',
    ])
  })

  it("keeps the function's own map, its relative addresses made absolute against the map's location", () => {
    const own = path.join(dir, 'lib', 'import_map.json')
    fs.writeFileSync(own, JSON.stringify({ imports: { 'shared/': '../shared/', lodash: 'npm:lodash@4', bad: 5 }, scopes: { './lib/': { x: './x.ts' } } }))
    const map = mergedImportMap(own, '/run/fn/std-http-server.mjs', ['https://deno.land/std/http/server.ts'])
    const base = pathToFileURL(own).href
    expect(map.imports).toEqual({
      'shared/': new URL('../shared/', base).href,
      lodash: 'npm:lodash@4',
      'https://deno.land/std/http/server.ts': 'file:///run/fn/std-http-server.mjs',
    })
    expect(map.scopes).toEqual({ [new URL('./lib/', base).href]: { x: new URL('./x.ts', base).href } })
    expect(mergedImportMap(null, '/s.mjs', ['https://deno.land/std/http/server.ts'])).toEqual({ imports: { 'https://deno.land/std/http/server.ts': 'file:///s.mjs' }, scopes: {} })
  })
})
