import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { OpenApiDocument } from '@stratum/contracts'
import { proceduresOf, tablesOf } from '../src/features/api-docs/openapi'
import { initSnippet, rpcSnippet, serviceKeySnippet, tableSnippets, type Language, type SnippetContext } from '../src/features/api-docs/snippets'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.resolve(HERE, '../../..')
/** A PostgREST document: a table with many column types, one with awkward names, a view, functions with and without arguments. */
const DOCUMENT = OpenApiDocument.parse(JSON.parse(fs.readFileSync(path.join(HERE, 'fixtures/openapi.json'), 'utf8')))
const TABLES = tablesOf(DOCUMENT)
const PROCEDURES = proceduresOf(DOCUMENT)

/** Both ways the drawer fills snippets: keys hidden (placeholders) and keys shown. */
const CONTEXTS: Record<string, SnippetContext> = {
  hidden: { url: 'http://localhost:8000', key: undefined },
  shown: { url: 'https://stratum.example.com:8443', key: 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.c2lnbmF0dXJl' },
}

/** Every snippet the drawer shows for a language, except the client initialization. */
function allSnippets(lang: Language, ctx: SnippetContext): { name: string; code: string }[] {
  return [
    { name: 'service key (hidden)', code: serviceKeySnippet(lang, ctx, undefined) },
    { name: 'service key (shown)', code: serviceKeySnippet(lang, ctx, 'eyJzZXJ2aWNlIjp0cnVlfQ.c2VydmljZQ') },
    ...TABLES.flatMap((table) => tableSnippets(lang, ctx, table).map((s) => ({ name: `${table.name} ${s.id}`, code: s.code }))),
    ...PROCEDURES.map((procedure) => ({ name: `rpc ${procedure.name}`, code: rpcSnippet(lang, ctx, procedure) })),
  ]
}

const scratch = fs.mkdtempSync(path.join(ROOT, 'node_modules', '.stratum-snippets-'))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

describe('the docs drawer snippets', () => {
  it('cover the fixture: tables, a view, functions with and without arguments', () => {
    expect(TABLES.map((t) => t.name)).toEqual(['authors', 'book_titles', 'order-items'])
    expect(PROCEDURES.map((p) => [p.name, p.params.length])).toEqual([
      ['add', 2],
      ['now_utc', 0],
      ['search_authors', 3],
    ])
    const ids = tableSnippets('js', CONTEXTS.hidden!, TABLES[0]!).map((s) => s.id)
    expect(ids).toEqual(['read-all', 'read-columns', 'paginate', 'filter', 'insert', 'update', 'delete'])
  })

  it('Javascript: every snippet compiles against @supabase/supabase-js with zero errors', () => {
    const files = Object.entries(CONTEXTS).map(([name, ctx]) => {
      // The initialization opens the file (it holds the import); each other snippet gets its own scope,
      // as a reader pastes it below the initialization.
      const body = allSnippets('js', ctx)
        .map((snippet, index) => `// ${snippet.name}\nexport async function snippet${index}() {\n${snippet.code}\n}`)
        .join('\n\n')
      const file = path.join(scratch, `snippets-${name}.ts`)
      fs.writeFileSync(file, `${initSnippet('js', ctx)}\n\n${body}\n`)
      return file
    })
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      skipLibCheck: true,
    })
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? path.basename(d.file.fileName) : ''}:${d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
    expect(errors).toEqual([])
    // The program really saw supabase-js: createClient resolved to its declaration.
    const checker = program.getTypeChecker()
    const source = program.getSourceFile(files[0]!)!
    const importDecl = source.statements.find(ts.isImportDeclaration)!
    const symbol = checker.getSymbolAtLocation(importDecl.moduleSpecifier)
    expect(symbol?.getName()).toContain('supabase-js')
  }, 60_000)

  it('Bash: every snippet passes bash -n, and its URLs hold no spaces', () => {
    for (const [name, ctx] of Object.entries(CONTEXTS)) {
      for (const snippet of [{ name: 'init', code: initSnippet('bash', ctx) }, ...allSnippets('bash', ctx)]) {
        const file = path.join(scratch, 'snippet.sh')
        fs.writeFileSync(file, `${snippet.code}\n`)
        expect(() => execFileSync('bash', ['-n', file], { stdio: 'pipe' }), `${name} ${snippet.name}`).not.toThrow()
        for (const [, url] of snippet.code.matchAll(/curl(?: -X \w+)? '([^']*)'/g)) {
          expect(() => new URL(url!), `${name} ${snippet.name}: ${url}`).not.toThrow()
          expect(url, `${name} ${snippet.name}`).not.toMatch(/\s/)
        }
      }
    }
  })
})
