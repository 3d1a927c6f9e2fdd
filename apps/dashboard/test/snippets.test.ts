import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { OpenApiDocument } from '@stratum/contracts'
import { graphqlTableSnippets } from '../src/features/api-docs/graphql-snippets'
import { proceduresOf, tablesOf } from '../src/features/api-docs/openapi'
import {
  authSnippets,
  broadcastSnippet,
  bucketSnippets,
  functionSnippet,
  initSnippet,
  rpcSnippet,
  serviceKeySnippet,
  subscribeSnippets,
  tableSnippets,
  type DocBucket,
  type Language,
  type SnippetContext,
} from '../src/features/api-docs/snippets'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.resolve(HERE, '../../..')
/** A PostgREST document: a table with many column types, one with awkward names, a view, functions with and without arguments. */
const DOCUMENT = OpenApiDocument.parse(JSON.parse(fs.readFileSync(path.join(HERE, 'fixtures/openapi.json'), 'utf8')))
const TABLES = tablesOf(DOCUMENT)
const PROCEDURES = proceduresOf(DOCUMENT)

/** Bucket records as GET /platform/storage/{ref}/buckets answers them: public, private, and a name that needs encoding. */
const BUCKETS: DocBucket[] = [
  { name: 'avatars', public: true },
  { name: 'private-docs', public: false },
  { name: 'team files.v2', public: false },
]
/** Edge function slugs (letters, digits, '_' and '-'). */
const FUNCTION_SLUGS = ['hello-world', 'send_email', 'A1']

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
    ...TABLES.flatMap((table) => graphqlTableSnippets(lang, ctx, table).map((s) => ({ name: `${table.name} graphql ${s.id}`, code: s.code }))),
    ...PROCEDURES.map((procedure) => ({ name: `rpc ${procedure.name}`, code: rpcSnippet(lang, ctx, procedure) })),
    ...authSnippets(lang, ctx).map((s) => ({ name: `auth ${s.id}`, code: s.code })),
    ...BUCKETS.flatMap((bucket) => bucketSnippets(lang, ctx, bucket).map((s) => ({ name: `bucket ${bucket.name} ${s.id}`, code: s.code }))),
    ...FUNCTION_SLUGS.map((slug) => ({ name: `function ${slug}`, code: functionSnippet(lang, ctx, slug) })),
    ...subscribeSnippets(lang, ctx, 'todos').map((s) => ({ name: `realtime ${s.id}`, code: s.code })),
    { name: 'realtime broadcast', code: broadcastSnippet(lang, ctx) },
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
    expect(ids).toEqual(['read-all', 'read-columns', 'paginate', 'filter', 'insert', 'update', 'delete', 'subscribe', 'subscribe-rows'])
  })

  it('cover every auth endpoint of spec §7.1, in both languages', () => {
    const bash = authSnippets('bash', CONTEXTS.hidden!).map((s) => s.code.split('\n')[0])
    expect(bash).toEqual([
      "curl -X POST 'http://localhost:8000/auth/v1/signup' \\",
      "curl -X POST 'http://localhost:8000/auth/v1/token?grant_type=password' \\",
      "curl -X POST 'http://localhost:8000/auth/v1/magiclink' \\",
      "curl -X POST 'http://localhost:8000/auth/v1/otp' \\",
      "curl -X POST 'http://localhost:8000/auth/v1/verify' \\",
      "curl 'http://localhost:8000/auth/v1/user' \\",
      "curl -X PUT 'http://localhost:8000/auth/v1/user' \\",
      "curl -X POST 'http://localhost:8000/auth/v1/recover' \\",
      "curl -X POST 'http://localhost:8000/auth/v1/logout' \\",
      "curl -X POST 'http://localhost:8000/auth/v1/invite' \\",
    ])
    const js = authSnippets('js', CONTEXTS.hidden!).map((s) => s.code).join('\n')
    for (const call of ['signUp', 'signInWithPassword', 'signInWithOtp', 'verifyOtp', 'getUser', 'updateUser', 'resetPasswordForEmail', 'signOut', 'admin.inviteUserByEmail'])
      expect(js).toContain(`supabase.auth.${call}(`)
    expect(js).toContain("token: '123456'") // SMS codes are 6 digits
  })

  it('storage: list 100 from 0, signed URLs for 60 s, every endpoint of §7.1, names encoded', () => {
    const byId = (lang: Language, bucket: DocBucket) => Object.fromEntries(bucketSnippets(lang, CONTEXTS.hidden!, bucket).map((s) => [s.id, s.code]))
    const js = byId('js', BUCKETS[0]!)
    expect(Object.keys(js)).toEqual(['upload', 'download', 'list', 'delete', 'signed-url', 'public-url'])
    expect(js.list).toMatch(/limit: 100,\s+offset: 0,/)
    expect(js['signed-url']).toContain(".createSignedUrl('folder/avatar1.png', 60)")
    const bash = byId('bash', BUCKETS[2]!)
    const base = 'http://localhost:8000/storage/v1/object'
    expect(bash.upload).toContain(`curl -X POST '${base}/team%20files.v2/folder/avatar1.png'`)
    expect(bash.download).toContain(`curl '${base}/team%20files.v2/folder/avatar1.png'`)
    expect(bash.delete).toContain(`curl -X DELETE '${base}/team%20files.v2/folder/avatar1.png'`)
    expect(bash.list).toContain(`curl -X POST '${base}/list/team%20files.v2'`)
    expect(bash.list).toContain('"limit":100,"offset":0')
    expect(bash['signed-url']).toContain(`curl -X POST '${base}/sign/team%20files.v2/folder/avatar1.png'`)
    expect(bash['signed-url']).toContain('{"expiresIn":60}')
    expect(bash['public-url']).toContain(`curl '${base}/public/team%20files.v2/folder/avatar1.png'`)
  })

  it('edge functions and filters: invoke URL, REST operators and the range 0 to 9', () => {
    expect(functionSnippet('bash', CONTEXTS.hidden!, 'hello-world')).toContain("curl -X POST 'http://localhost:8000/functions/v1/hello-world'")
    expect(functionSnippet('js', CONTEXTS.hidden!, 'hello-world')).toContain("supabase.functions.invoke('hello-world'")
    const filter = (lang: Language) => tableSnippets(lang, CONTEXTS.hidden!, TABLES[0]!).find((s) => s.id === 'filter')!.code
    for (const op of ['eq', 'neq', 'gt', 'lt', 'gte', 'lte', 'like', 'ilike', 'in', 'is', 'contains', 'containedBy', 'not', 'or'])
      expect(filter('js')).toContain(`.${op}(`)
    expect(filter('js')).toContain('.range(0, 9)')
    expect(filter('bash')).toContain('-H "Range: 0-9"')
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
    // A bash process per snippet: slow on a busy machine, so a generous limit (not a duration check).
  }, 60_000)
})
