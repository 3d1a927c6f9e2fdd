import type { DocColumn, DocProcedure, DocTable } from './openapi'

export type Language = 'js' | 'bash'

export const LANGUAGES: { id: Language; label: string }[] = [
  { id: 'js', label: 'Javascript' },
  { id: 'bash', label: 'Bash' },
]

/** What every snippet is filled in with: the project's URL and, when keys are shown, its anon key. */
export interface SnippetContext {
  url: string
  /** The real anon key, or undefined to use a placeholder. */
  key: string | undefined
}

const KEY_PLACEHOLDER_BASH = 'SUPABASE_KEY'

function bashKey(ctx: SnippetContext): string {
  return ctx.key ?? `$${KEY_PLACEHOLDER_BASH}`
}

function curlHeaders(ctx: SnippetContext): string[] {
  const key = bashKey(ctx)
  return [`-H "apikey: ${key}"`, `-H "Authorization: Bearer ${key}"`]
}

/** A word in single quotes for the shell (a quote inside closes, escapes and reopens). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** A curl command, one option a line. */
function curl(ctx: SnippetContext, method: string, url: string, extra: string[] = []): string {
  return [`curl${method === 'GET' ? '' : ` -X ${method}`} ${shellQuote(url)}`, ...curlHeaders(ctx), ...extra].join(' \\\n')
}

/**
 * A column name as the REST interface reads it in select lists and filter keys: plain names as they
 * are, others (spaces, dashes...) in double quotes, which PostgREST (and supabase-js's select, which
 * drops unquoted whitespace) keep intact.
 */
export function restColumn(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_$]*$/.test(name) ? name : `"${name.replace(/(["\\])/g, '\\$1')}"`
}

/** A sample value of the right kind for a column, used in insert and filter snippets. */
function sample(column: DocColumn | undefined): string | number | boolean {
  if (!column) return 'someValue'
  if (column.type === 'integer' || column.type === 'number') return 1
  if (column.type === 'boolean') return true
  return `some ${column.name}`
}

const js = (value: unknown) => (typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value))
const q = (value: unknown) => encodeURIComponent(String(value))

export function initSnippet(lang: Language, ctx: SnippetContext): string {
  if (lang === 'bash') return `export SUPABASE_URL="${ctx.url}"\nexport ${KEY_PLACEHOLDER_BASH}="${ctx.key ?? 'your anon key'}"`
  return [
    `import { createClient } from '@supabase/supabase-js'`,
    ``,
    `const supabaseUrl = '${ctx.url}'`,
    ctx.key ? `const supabaseKey = '${ctx.key}'` : `const supabaseKey = process.env.SUPABASE_KEY ?? ''`,
    `const supabase = createClient(supabaseUrl, supabaseKey)`,
  ].join('\n')
}

export function serviceKeySnippet(lang: Language, ctx: SnippetContext, serviceKey: string | undefined): string {
  const key = serviceKey ?? 'your service_role key'
  if (lang === 'bash') return [`curl ${shellQuote(`${ctx.url}/rest/v1/`)}`, `-H "apikey: ${key}"`, `-H "Authorization: Bearer ${key}"`].join(' \\\n')
  return `const supabase = createClient('${ctx.url}', '${key}')`
}

/** The first writable-looking columns: identity and primary keys usually fill themselves. */
function exampleColumns(table: DocTable): DocColumn[] {
  const plain = table.columns.filter((column) => !/Primary Key/.test(column.description))
  return (plain.length > 0 ? plain : table.columns).slice(0, 2)
}

export interface TableSnippet {
  id: string
  title: string
  description?: string
  code: string
}

export function tableSnippets(lang: Language, ctx: SnippetContext, table: DocTable): TableSnippet[] {
  const name = table.name
  const rest = `${ctx.url}/rest/v1/${encodeURIComponent(name)}`
  const [first, second] = exampleColumns(table)
  const col = first?.name ?? 'some_column'
  const other = second?.name ?? first?.name ?? 'other_column'
  const qcol = q(restColumn(col))
  const row = Object.fromEntries((second ? [first!, second] : first ? [first] : []).map((c) => [c.name, sample(c)]))
  const filterValue = sample(first)
  const columnsList = table.columns.slice(0, 3).map((c) => restColumn(c.name)).join(',') || '*'
  const bash = (method: string, path: string, extra: string[] = [], body?: unknown) =>
    curl(ctx, method, path, [...extra, ...(body === undefined ? [] : [`-d ${shellQuote(JSON.stringify(body))}`])])
  const snippets: TableSnippet[] = []

  snippets.push({
    id: 'read-all',
    title: 'Read all rows',
    code:
      lang === 'js'
        ? `let { data: ${safeIdent(name)}, error } = await supabase\n  .from(${js(name)})\n  .select('*')`
        : bash('GET', `${rest}?select=*`),
  })
  snippets.push({
    id: 'read-columns',
    title: 'Read specific columns',
    code:
      lang === 'js'
        ? `let { data: ${safeIdent(name)}, error } = await supabase\n  .from(${js(name)})\n  .select(${js(columnsList)})`
        : bash('GET', `${rest}?select=${q(columnsList)}`),
  })
  snippets.push({
    id: 'paginate',
    title: 'With pagination',
    code:
      lang === 'js'
        ? `let { data: ${safeIdent(name)}, error } = await supabase\n  .from(${js(name)})\n  .select('*')\n  .range(0, 9)`
        : bash('GET', `${rest}?select=*`, [`-H "Range: 0-9"`]),
  })
  snippets.push({
    id: 'filter',
    title: 'Filtering',
    description: 'Every operator of the REST interface: combine as many as needed.',
    code:
      lang === 'js'
        ? [
            `let { data: ${safeIdent(name)}, error } = await supabase`,
            `  .from(${js(name)})`,
            `  .select('*')`,
            ``,
            `  // Filters`,
            `  .eq(${js(col)}, ${js(filterValue)})`,
            `  .neq(${js(col)}, ${js(filterValue)})`,
            `  .gt(${js(col)}, ${js(filterValue)})`,
            `  .lt(${js(col)}, ${js(filterValue)})`,
            `  .gte(${js(col)}, ${js(filterValue)})`,
            `  .lte(${js(col)}, ${js(filterValue)})`,
            `  .like(${js(col)}, '%CaseSensitive%')`,
            `  .ilike(${js(col)}, '%CaseInsensitive%')`,
            `  .in(${js(col)}, [${js(filterValue)}])`,
            `  .is(${js(col)}, null)`,
            ``,
            `  // Arrays`,
            `  .contains(${js(col)}, [${js(filterValue)}])`,
            `  .containedBy(${js(col)}, [${js(filterValue)}])`,
            ``,
            `  // Logical operators`,
            `  .not(${js(col)}, 'is', null)`,
            `  .or(${js(`${restColumn(col)}.eq.${filterValue},${restColumn(other)}.is.null`)})`,
            ``,
            `  // Pagination: rows 0 to 9`,
            `  .range(0, 9)`,
          ].join('\n')
        : [
            bash('GET', `${rest}?${qcol}=eq.${q(filterValue)}&select=*`, [`-H "Range: 0-9"`]),
            ``,
            `# Operators: eq, neq, gt, lt, gte, lte, like, ilike, in, is, cs (contains), cd (contained by), not, or`,
            `# ?${qcol}=gt.${q(filterValue)}   ?${qcol}=like.*CaseSensitive*   ?${qcol}=ilike.*CaseInsensitive*`,
            `# ?${qcol}=in.(${q(filterValue)})   ?${qcol}=is.null   ?${qcol}=cs.{${q(filterValue)}}   ?${qcol}=cd.{${q(filterValue)}}`,
            `# ?${qcol}=not.is.null   ?or=(${qcol}.eq.${q(filterValue)},${q(restColumn(other))}.is.null)`,
            `# Pagination: the Range header (rows 0 to 9), or ?limit=10&offset=0`,
          ].join('\n'),
  })
  if (table.canInsert)
    snippets.push({
      id: 'insert',
      title: 'Insert a row',
      code:
        lang === 'js'
          ? `const { data, error } = await supabase\n  .from(${js(name)})\n  .insert([\n    ${jsObject(row)},\n  ])\n  .select()`
          : bash('POST', rest, [`-H "Content-Type: application/json"`, `-H "Prefer: return=minimal"`], row),
    })
  if (table.canUpdate)
    snippets.push({
      id: 'update',
      title: 'Update matching rows',
      code:
        lang === 'js'
          ? `const { data, error } = await supabase\n  .from(${js(name)})\n  .update(${jsObject({ [other]: sample(second ?? first) })})\n  .eq(${js(col)}, ${js(filterValue)})\n  .select()`
          : bash('PATCH', `${rest}?${qcol}=eq.${q(filterValue)}`, [`-H "Content-Type: application/json"`, `-H "Prefer: return=minimal"`], {
              [other]: sample(second ?? first),
            }),
    })
  if (table.canDelete)
    snippets.push({
      id: 'delete',
      title: 'Delete matching rows',
      code:
        lang === 'js'
          ? `const { error } = await supabase\n  .from(${js(name)})\n  .delete()\n  .eq(${js(col)}, ${js(filterValue)})`
          : bash('DELETE', `${rest}?${qcol}=eq.${q(filterValue)}`),
    })
  snippets.push(...subscribeSnippets(lang, ctx, name, col, filterValue))
  return snippets
}

/** Realtime: listening to a table's changes (all events, then one row's). */
export function subscribeSnippets(
  lang: Language,
  ctx: SnippetContext,
  table: string,
  column = 'id',
  value: string | number | boolean = 1,
): TableSnippet[] {
  const channel = `${table.replace(/[^\w-]/g, '_')}-changes`
  const all = [
    `const channel = supabase`,
    `  .channel(${js(channel)})`,
    `  .on(`,
    `    'postgres_changes',`,
    `    { event: '*', schema: 'public', table: ${js(table)} },`,
    `    (payload) => console.log('Change received!', payload),`,
    `  )`,
    `  .subscribe()`,
    ``,
    `// When done listening:`,
    `// await supabase.removeChannel(channel)`,
  ].join('\n')
  const rows = [
    `const channel = supabase`,
    `  .channel(${js(`${channel}-filtered`)})`,
    `  .on(`,
    `    'postgres_changes',`,
    `    { event: 'UPDATE', schema: 'public', table: ${js(table)}, filter: ${js(`${column}=eq.${value}`)} },`,
    `    (payload) => console.log('Row updated!', payload.new),`,
    `  )`,
    `  .subscribe()`,
  ].join('\n')
  return [
    {
      id: 'subscribe',
      title: 'Subscribe to changes',
      description: 'Inserts, updates and deletes, pushed over Realtime (the table must be in the realtime publication).',
      code: lang === 'js' ? all : realtimeBash(ctx, `postgres_changes on public.${table}, all events`),
    },
    {
      id: 'subscribe-rows',
      title: 'Subscribe to specific rows',
      description: 'A filter with a REST operator narrows the events to matching rows.',
      code: lang === 'js' ? rows : realtimeBash(ctx, `postgres_changes on public.${table}, UPDATE where ${column}=eq.${value}`),
    },
  ]
}

/** Realtime speaks WebSocket, not HTTP: a Bash reader gets the socket URL and the client to use. */
function realtimeBash(ctx: SnippetContext, what: string): string {
  const ws = ctx.url.replace(/^http/, 'ws')
  return [
    `# Realtime is a WebSocket protocol (Phoenix channels): curl cannot subscribe.`,
    `# Listen with a supabase client library, or a WebSocket tool such as websocat:`,
    `#   websocat ${shellQuote(`${ws}/realtime/v1/websocket?apikey=${bashKey(ctx)}&vsn=1.0.0`)}`,
    `# then join a channel for: ${what.replace(/\n/g, ' ')}`,
  ].join('\n')
}

export function rpcSnippet(lang: Language, ctx: SnippetContext, procedure: DocProcedure): string {
  const args = Object.fromEntries(procedure.params.map((param) => [param.name, sample(param)]))
  if (lang === 'js') {
    const body = procedure.params.length ? `, ${jsObject(args)}` : ''
    return `let { data, error } = await supabase\n  .rpc(${js(procedure.name)}${body})\nif (error) console.error(error)\nelse console.log(data)`
  }
  return curl(ctx, 'POST', `${ctx.url}/rest/v1/rpc/${encodeURIComponent(procedure.name)}`, [
    `-H "Content-Type: application/json"`,
    `-d ${shellQuote(JSON.stringify(args))}`,
  ])
}

function jsObject(value: Record<string, unknown>): string {
  const entries = Object.entries(value).map(([key, v]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : js(key)}: ${js(v)}`)
  return entries.length ? `{ ${entries.join(', ')} }` : '{}'
}

function safeIdent(name: string): string {
  const ident = name.replace(/[^\w$]/g, '_')
  return /^[A-Za-z_$]/.test(ident) ? ident : `_${ident}`
}

/** A doc snippet: what the drawer shows under a title. */
export type DocSnippet = TableSnippet

const USER_TOKEN = 'USER_TOKEN'
const SERVICE_KEY = 'SERVICE_ROLE_KEY'

/** A curl call to the auth API: the apikey header always, the bearer of the caller (anon key, a user's token or the service key). */
function authCurl(ctx: SnippetContext, method: string, url: string, bearer: string, body?: unknown): string {
  const key = bashKey(ctx)
  return [
    `curl${method === 'GET' ? '' : ` -X ${method}`} ${shellQuote(url)}`,
    `-H "apikey: ${key}"`,
    `-H "Authorization: Bearer ${bearer}"`,
    ...(body === undefined ? [] : [`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(body))}`]),
  ].join(' \\\n')
}

/** User Management: one snippet a endpoint of the auth API (the API docs spec's endpoint list). */
export function authSnippets(lang: Language, ctx: SnippetContext): DocSnippet[] {
  const auth = `${ctx.url}/auth/v1`
  const key = bashKey(ctx)
  const user = `$${USER_TOKEN}`
  const email = 'someone@email.com'
  const password = 'some-secure-password'
  const phone = '+13334445555'
  const snippet = (id: string, title: string, description: string, jsCode: string[], bashCode: string): DocSnippet => ({
    id,
    title,
    description,
    code: lang === 'js' ? jsCode.join('\n') : bashCode,
  })
  return [
    snippet(
      'sign-up',
      'Sign up',
      'Creates a user with an email and a password (POST /auth/v1/signup).',
      [`let { data, error } = await supabase.auth.signUp({`, `  email: ${js(email)},`, `  password: ${js(password)},`, `})`],
      authCurl(ctx, 'POST', `${auth}/signup`, key, { email, password }),
    ),
    snippet(
      'sign-in-password',
      'Log in with email and password',
      'Returns an access token and a refresh token (POST /auth/v1/token?grant_type=password).',
      [`let { data, error } = await supabase.auth.signInWithPassword({`, `  email: ${js(email)},`, `  password: ${js(password)},`, `})`],
      authCurl(ctx, 'POST', `${auth}/token?grant_type=password`, key, { email, password }),
    ),
    snippet(
      'magic-link',
      'Log in with a magic link',
      'Emails a link that signs the user in (POST /auth/v1/magiclink).',
      [`let { data, error } = await supabase.auth.signInWithOtp({`, `  email: ${js(email)},`, `})`],
      authCurl(ctx, 'POST', `${auth}/magiclink`, key, { email }),
    ),
    snippet(
      'sms-otp',
      'Sign up or log in with a phone number',
      'Texts a 6-digit one-time code to the phone (POST /auth/v1/otp).',
      [`let { data, error } = await supabase.auth.signInWithOtp({`, `  phone: ${js(phone)},`, `})`],
      authCurl(ctx, 'POST', `${auth}/otp`, key, { phone }),
    ),
    snippet(
      'verify',
      'Verify a one-time code',
      'Exchanges the 6-digit code the user received for a session (POST /auth/v1/verify).',
      [`let { data, error } = await supabase.auth.verifyOtp({`, `  phone: ${js(phone)},`, `  token: '123456',`, `  type: 'sms',`, `})`],
      authCurl(ctx, 'POST', `${auth}/verify`, key, { type: 'sms', phone, token: '123456' }),
    ),
    snippet(
      'get-user',
      'Get the signed-in user',
      'Reads the user of an access token (GET /auth/v1/user).',
      [`const {`, `  data: { user },`, `} = await supabase.auth.getUser()`],
      authCurl(ctx, 'GET', `${auth}/user`, user),
    ),
    snippet(
      'update-user',
      'Update the signed-in user',
      'Changes the email, the password or the user metadata (PUT /auth/v1/user).',
      [
        `const { data, error } = await supabase.auth.updateUser({`,
        `  email: 'new@email.com',`,
        `  password: 'new-password',`,
        `  data: { hello: 'world' },`,
        `})`,
      ],
      authCurl(ctx, 'PUT', `${auth}/user`, user, { email: 'new@email.com', password: 'new-password', data: { hello: 'world' } }),
    ),
    snippet(
      'recover',
      'Forgotten password email',
      'Emails a link to reset the password (POST /auth/v1/recover).',
      [`let { data, error } = await supabase.auth.resetPasswordForEmail(${js(email)})`],
      authCurl(ctx, 'POST', `${auth}/recover`, key, { email }),
    ),
    snippet(
      'logout',
      'Log out',
      'Revokes the refresh tokens of the session (POST /auth/v1/logout).',
      [`let { error } = await supabase.auth.signOut()`],
      authCurl(ctx, 'POST', `${auth}/logout`, user),
    ),
    snippet(
      'invite',
      'Invite a user',
      'Emails an invitation link. On a server only: it needs the service_role key (POST /auth/v1/invite).',
      [`// A client made with the service_role key`, `let { data, error } = await supabase.auth.admin.inviteUserByEmail(${js(email)})`],
      authCurl(ctx, 'POST', `${auth}/invite`, `$${SERVICE_KEY}`, { email }).replace(`-H "apikey: ${key}"`, `-H "apikey: $${SERVICE_KEY}"`),
    ),
  ]
}

/** What a bucket page needs of a bucket record. */
export interface DocBucket {
  name: string
  public: boolean
}

/** A storage object path in a URL: each segment encoded, the slashes kept. */
const objectPath = (path: string) => path.split('/').map(encodeURIComponent).join('/')

/** Storage: the file calls of one bucket (the API docs spec's endpoint list and limits: list limit 100 offset 0,
 * signed URL for 60 s). */
export function bucketSnippets(lang: Language, ctx: SnippetContext, bucket: DocBucket): DocSnippet[] {
  const name = bucket.name
  const base = `${ctx.url}/storage/v1/object`
  const b = encodeURIComponent(name)
  const file = 'folder/avatar1.png'
  const from = `supabase.storage\n  .from(${js(name)})`
  const snippet = (id: string, title: string, description: string, jsCode: string, bashCode: string): DocSnippet => ({
    id,
    title,
    description,
    code: lang === 'js' ? jsCode : bashCode,
  })
  return [
    snippet(
      'upload',
      'Upload a file',
      'Fails when the file exists unless upsert is set; the bucket’s MIME types and maximum size apply.',
      [
        `// avatarFile: a File from an <input type="file">, a Blob or an ArrayBuffer`,
        `const avatarFile = new Blob(['...'], { type: 'image/png' })`,
        `const { data, error } = await ${from}`,
        `  .upload(${js(file)}, avatarFile, { cacheControl: '3600', upsert: false })`,
      ].join('\n'),
      curl(ctx, 'POST', `${base}/${b}/${objectPath(file)}`, [`-H "Content-Type: image/png"`, `--data-binary @avatar1.png`]),
    ),
    snippet(
      'download',
      'Download a file',
      'Private buckets need a key or a user token with read access.',
      `const { data, error } = await ${from}\n  .download(${js(file)})`,
      curl(ctx, 'GET', `${base}/${b}/${objectPath(file)}`, [`-o avatar1.png`]),
    ),
    snippet(
      'list',
      'List files',
      'The first 100 entries of a folder, sorted by name.',
      `const { data, error } = await ${from}\n  .list('folder', {\n    limit: 100,\n    offset: 0,\n    sortBy: { column: 'name', order: 'asc' },\n  })`,
      curl(ctx, 'POST', `${base}/list/${b}`, [
        `-H "Content-Type: application/json"`,
        `-d ${shellQuote(JSON.stringify({ prefix: 'folder', limit: 100, offset: 0, sortBy: { column: 'name', order: 'asc' } }))}`,
      ]),
    ),
    snippet(
      'delete',
      'Delete files',
      'Removes one or more files.',
      `const { data, error } = await ${from}\n  .remove([${js(file)}])`,
      curl(ctx, 'DELETE', `${base}/${b}/${objectPath(file)}`),
    ),
    snippet(
      'signed-url',
      'Create a signed URL',
      'A URL anyone can use to download the file for 60 seconds, even from a private bucket.',
      `const { data, error } = await ${from}\n  .createSignedUrl(${js(file)}, 60)`,
      curl(ctx, 'POST', `${base}/sign/${b}/${objectPath(file)}`, [`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify({ expiresIn: 60 }))}`]),
    ),
    snippet(
      'public-url',
      'Get the public URL',
      bucket.public
        ? 'This bucket is public: the URL serves the file to anyone, without a key.'
        : 'This bucket is private: the public URL answers only once the bucket is made public. Use a signed URL instead.',
      `const { data } = ${from}\n  .getPublicUrl(${js(file)})\n\nconsole.log(data.publicUrl)`,
      `curl ${shellQuote(`${base}/public/${b}/${objectPath(file)}`)} \\\n-o avatar1.png`,
    ),
  ]
}

/** Edge Functions: invoking one (POST /functions/v1/{slug}). */
export function functionSnippet(lang: Language, ctx: SnippetContext, slug: string): string {
  if (lang === 'js')
    return [
      `const { data, error } = await supabase.functions.invoke(${js(slug)}, {`,
      `  body: { name: 'Functions' },`,
      `})`,
    ].join('\n')
  return curl(ctx, 'POST', `${ctx.url}/functions/v1/${encodeURIComponent(slug)}`, [
    `-H "Content-Type: application/json"`,
    `-d ${shellQuote(JSON.stringify({ name: 'Functions' }))}`,
  ])
}

/** Realtime: broadcast messages between clients on a channel. */
export function broadcastSnippet(lang: Language, ctx: SnippetContext): string {
  if (lang === 'bash') return realtimeBash(ctx, "broadcast on the channel 'room-1'")
  return [
    `const channel = supabase.channel('room-1')`,
    ``,
    `channel`,
    `  .on('broadcast', { event: 'cursor-pos' }, (payload) => console.log('Cursor moved', payload))`,
    `  .subscribe((status) => {`,
    `    if (status === 'SUBSCRIBED') {`,
    `      void channel.send({ type: 'broadcast', event: 'cursor-pos', payload: { x: 10, y: 20 } })`,
    `    }`,
    `  })`,
  ].join('\n')
}
