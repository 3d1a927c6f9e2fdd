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
          ].join('\n')
        : [
            bash('GET', `${rest}?${qcol}=eq.${q(filterValue)}&select=*`),
            ``,
            `# Operators: eq, neq, gt, lt, gte, lte, like, ilike, in, is`,
            `# ?${qcol}=gt.${q(filterValue)}   ?${qcol}=like.*CaseSensitive*   ?${qcol}=ilike.*CaseInsensitive*`,
            `# ?${qcol}=in.(${q(filterValue)})   ?${qcol}=is.null`,
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
  return snippets
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
