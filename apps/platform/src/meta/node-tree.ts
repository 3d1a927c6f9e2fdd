/**
 * A reader for Postgres' pg_node_tree text (pg_rewrite.ev_action of views), enough to learn where each
 * view column comes from: the top-level Query's targetList entries carry `:resno` (the view column),
 * `:resorigtbl` and `:resorigcol` (the table column it is a plain reference to, or 0).
 *
 * The format (nodes/outfuncs.c, read.c): `{NODENAME :field value ...}` nodes, `(...)` lists, `<>` for
 * NULL, and tokens separated by whitespace, where a backslash protects the next character (so names
 * with spaces or brackets stay one token).
 */

export type TreeValue = TreeNode | TreeValue[] | Atom

export interface TreeNode {
  kind: 'node'
  name: string
  items: TreeValue[]
}

export interface Atom {
  kind: 'atom'
  text: string
  /** A token that began with a backslash (a literal string, never a `:field` name). */
  escaped: boolean
}

interface Token {
  text: string
  escaped: boolean
  /** One of ( ) { } outside any escape. */
  punct: boolean
}

function* tokens(source: string): Generator<Token> {
  let i = 0
  const n = source.length
  while (i < n) {
    const ch = source[i]!
    if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r') {
      i++
      continue
    }
    if (ch === '(' || ch === ')' || ch === '{' || ch === '}') {
      i++
      yield { text: ch, escaped: false, punct: true }
      continue
    }
    let text = ''
    const escaped = ch === '\\'
    while (i < n) {
      const c = source[i]!
      if (c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '(' || c === ')' || c === '{' || c === '}') break
      if (c === '\\' && i + 1 < n) {
        text += source[i + 1]
        i += 2
        continue
      }
      text += c
      i++
    }
    yield { text, escaped, punct: false }
  }
}

/** Parses a whole pg_node_tree text into its values (usually one list holding one Query node). */
export function parseNodeTree(source: string): TreeValue[] {
  const stream = tokens(source)
  const stack: Array<TreeNode | TreeValue[]> = []
  const top: TreeValue[] = []
  let expectName = false
  const push = (value: TreeValue) => {
    const current = stack[stack.length - 1]
    if (!current) top.push(value)
    else if (Array.isArray(current)) current.push(value)
    else current.items.push(value)
  }
  for (const token of stream) {
    if (expectName) {
      expectName = false
      const node = stack[stack.length - 1] as TreeNode
      if (!token.punct) {
        node.name = token.text
        continue
      }
    }
    if (token.punct) {
      if (token.text === '{') {
        const node: TreeNode = { kind: 'node', name: '', items: [] }
        push(node)
        stack.push(node)
        expectName = true
      } else if (token.text === '(') {
        const list: TreeValue[] = []
        push(list)
        stack.push(list)
      } else {
        stack.pop()
      }
      continue
    }
    push({ kind: 'atom', text: token.text, escaped: token.escaped })
  }
  return top
}

function isAtom(value: TreeValue | undefined): value is Atom {
  return !!value && !Array.isArray(value) && value.kind === 'atom'
}

function isNode(value: TreeValue | undefined): value is TreeNode {
  return !!value && !Array.isArray(value) && value.kind === 'node'
}

/**
 * The value after `:name` among a node's own items. `last` picks the last occurrence: a column named
 * like a field (`:resname :resorigtbl`) comes before the real field in TARGETENTRY.
 */
export function field(node: TreeNode, name: string, last = false): TreeValue | undefined {
  const key = `:${name}`
  let found: TreeValue | undefined
  for (let i = 0; i < node.items.length - 1; i++) {
    const item = node.items[i]
    if (isAtom(item) && !item.escaped && item.text === key) {
      found = node.items[i + 1]
      if (!last) return found
    }
  }
  return found
}

function intField(node: TreeNode, name: string, last = false): number | null {
  const value = field(node, name, last)
  if (!isAtom(value)) return null
  const parsed = Number(value.text)
  return Number.isInteger(parsed) ? parsed : null
}

export interface TargetOrigin {
  /** The view's column number. */
  resno: number
  /** The relation and column the view column is a plain copy of. */
  table: number
  column: number
}

/** The origins of a view's columns, read from its _RETURN rule action. Columns computed from expressions are left out. */
export function viewColumnOrigins(evAction: string): TargetOrigin[] {
  const [first] = parseNodeTree(evAction)
  const query = Array.isArray(first) ? first[0] : first
  if (!isNode(query) || query.name !== 'QUERY') return []
  const targetList = field(query, 'targetList')
  if (!Array.isArray(targetList)) return []
  const origins: TargetOrigin[] = []
  for (const entry of targetList) {
    if (!isNode(entry) || entry.name !== 'TARGETENTRY') continue
    const resno = intField(entry, 'resno')
    const table = intField(entry, 'resorigtbl', true)
    const column = intField(entry, 'resorigcol', true)
    if (resno === null || !table || !column) continue
    origins.push({ resno, table, column })
  }
  return origins
}
