import { viewColumnOrigins } from './node-tree.js'

/**
 * PostgREST's inference of keys for views: a view column that is a plain copy of a table column (through
 * any chain of views of the search path) carries that column's primary and foreign keys, provided the
 * view copies every column of the key. Views then get primary keys, and relationships view -> table,
 * table -> view and view -> view join the tables' own foreign keys.
 */

export interface RelEnd {
  id: number
  schema: string
  name: string
  isView: boolean
}

/** A many-to-one (or one-to-one) relationship, from the side holding the key. */
export interface Rel {
  table: RelEnd
  foreign: RelEnd
  constraint: string
  columns: Array<[string, string]>
}

/** A primary or foreign key, with its columns (numbers and names) on both sides, in key order. */
export interface KeyRow {
  name: string
  type: 'p' | 'f'
  table_id: string
  table_schema: string
  table_name: string
  table_kind: string
  target_id: string | null
  target_schema: string | null
  target_name: string | null
  nums: number[]
  names: string[]
  target_nums: Array<number | null>
  target_names: Array<string | null>
}

export interface ViewDefinition {
  id: string
  schema: string
  name: string
  /** pg_rewrite.ev_action of the view's _RETURN rule. */
  action: string
}

type KeyDepType = 'p' | 'f' | 'f_ref'

interface KeyDep {
  tableId: number
  view: RelEnd
  constraint: string
  type: KeyDepType
  /** Each key column with the view columns that copy it. */
  columns: Array<[string, string[]]>
}

/** Every choice of one view column per key column (PostgREST's expandKeyDepCols). */
function expand(columns: Array<[string, string[]]>): Array<Array<[string, string]>> {
  let combos: Array<Array<[string, string]>> = [[]]
  for (const [tableColumn, viewColumns] of columns) {
    combos = combos.flatMap((combo) => viewColumns.map((viewColumn) => [...combo, [tableColumn, viewColumn] as [string, string]]))
  }
  return combos
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

export interface ViewKeys {
  /** Primary-key columns of each view of the schema (by view id). */
  primaryKeys: Map<number, string[]>
  /** Relationships through views, to add to the tables' own. */
  rels: Rel[]
}

/**
 * @param views definitions of the views of the exposed schema and of the extra search path
 * @param exposedViews ids of the exposed schema's views (the ones that get keys)
 * @param columnNames column names by number, for those views
 * @param keys every primary and foreign key of the database
 * @param rels the tables' own foreign keys
 */
export function inferViewKeys(
  views: ViewDefinition[],
  exposedViews: Set<number>,
  columnNames: Map<number, Map<number, string>>,
  keys: KeyRow[],
  rels: Rel[],
): ViewKeys {
  const origins = new Map<number, Map<number, { table: number; column: number }>>()
  const viewInfo = new Map<number, { schema: string; name: string }>()
  for (const view of views) {
    const id = Number(view.id)
    viewInfo.set(id, { schema: view.schema, name: view.name })
    origins.set(id, new Map(viewColumnOrigins(view.action).map((o) => [o.resno, { table: o.table, column: o.column }])))
  }

  // (relation, column) -> view -> the view's columns that copy it, at any depth.
  const refs = new Map<string, Map<number, string[]>>()
  for (const viewId of exposedViews) {
    const names = columnNames.get(viewId)
    for (const [resno, origin] of origins.get(viewId) ?? []) {
      const viewColumn = names?.get(resno)
      if (!viewColumn) continue
      const seen = new Set<number>([viewId])
      let current: { table: number; column: number } | undefined = origin
      while (current) {
        const key = `${current.table}.${current.column}`
        if (!refs.has(key)) refs.set(key, new Map())
        push(refs.get(key)!, viewId, viewColumn)
        if (seen.has(current.table) || !origins.has(current.table)) break
        seen.add(current.table)
        current = origins.get(current.table)!.get(current.column)
      }
    }
  }

  // Key dependencies, by table, constraint and kind.
  const deps = new Map<string, KeyDep[]>()
  const primaryKeys = new Map<number, string[]>()
  const addDeps = (tableId: number, constraint: string, type: KeyDepType, nums: Array<number | null>, names: Array<string | null>) => {
    const perView = new Map<number, Array<[string, string[]]>>()
    nums.forEach((num, i) => {
      for (const [viewId, viewColumns] of refs.get(`${tableId}.${num}`) ?? []) push(perView, viewId, [names[i]!, viewColumns] as [string, string[]])
    })
    for (const [viewId, columns] of perView) {
      if (columns.length !== nums.length) continue // only keys the view copies whole
      const info = viewInfo.get(viewId)!
      const view: RelEnd = { id: viewId, schema: info.schema, name: info.name, isView: true }
      push(deps, `${tableId}|${constraint}|${type}`, { tableId, view, constraint, type, columns })
      // A view's primary key: the first view column copying each key column.
      if (type === 'p') primaryKeys.set(viewId, [...(primaryKeys.get(viewId) ?? []), ...columns.map(([, viewColumns]) => viewColumns[0]!)])
    }
  }
  for (const key of keys) {
    addDeps(Number(key.table_id), key.name, key.type, key.nums, key.names)
    if (key.type === 'f') addDeps(Number(key.target_id), key.name, 'f_ref', key.target_nums, key.target_names)
  }

  const added: Rel[] = []
  for (const rel of rels) {
    const fromViews = deps.get(`${rel.table.id}|${rel.constraint}|f`) ?? []
    const toViews = deps.get(`${rel.foreign.id}|${rel.constraint}|f_ref`) ?? []
    for (const from of fromViews) {
      for (const combo of expand(from.columns)) {
        added.push({ table: from.view, foreign: rel.foreign, constraint: rel.constraint, columns: combo.map(([, v], i) => [v, rel.columns[i]![1]]) })
      }
    }
    for (const to of toViews) {
      for (const combo of expand(to.columns)) {
        added.push({ table: rel.table, foreign: to.view, constraint: rel.constraint, columns: rel.columns.map(([c], i) => [c, combo[i]![1]]) })
      }
    }
    for (const from of fromViews) {
      for (const fromCombo of expand(from.columns)) {
        for (const to of toViews) {
          for (const toCombo of expand(to.columns)) {
            added.push({ table: from.view, foreign: to.view, constraint: rel.constraint, columns: fromCombo.map(([, v], i) => [v, toCombo[i]![1]]) })
          }
        }
      }
    }
  }
  return { primaryKeys, rels: added }
}
